import type { ContextField } from '../../api/types';
import { useResource } from '../../api/use-resource';
import { Loaded } from '../../components/status';
import { PageHeader } from '../../layout/page-header';
import { Link, type RouteProps } from '../../router';
import { useCan } from '../../session';

const contextFieldHref = (name: string) => `/context/${encodeURIComponent(name)}`;

/** The fields of the context SDKs evaluate flags in, which constraints compare. */
export function ContextFieldsPage(_props: RouteProps) {
  const fields = useResource<ContextField[]>('/api/admin/context');
  const canCreate = useCan('CREATE_CONTEXT_FIELD');
  return (
    <>
      <PageHeader
        title="Context fields"
        actions={
          canCreate && (
            <Link href="/create-context-field" class="button button-primary">
              New context field
            </Link>
          )
        }
      >
        <p class="muted">What an application tells the SDK about a request, for constraints to compare.</p>
      </PageHeader>
      <Loaded resources={[fields]}>
        {(list) => (
          <table class="table">
            <caption class="visually-hidden">Context fields</caption>
            <thead>
              <tr>
                <th scope="col">Field</th>
                <th scope="col">Legal values</th>
                <th scope="col">Stickiness</th>
              </tr>
            </thead>
            <tbody>
              {list.map((f) => (
                <tr key={f.name}>
                  <th scope="row" data-label="Field">
                    <Link href={contextFieldHref(f.name)}>{f.name}</Link>
                    {f.description && <p class="muted flag-description">{f.description}</p>}
                  </th>
                  <td data-label="Legal values">
                    {f.legalValues.length === 0 ? 'Any' : f.legalValues.length}
                  </td>
                  <td data-label="Stickiness">{f.stickiness ? 'Yes' : 'No'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Loaded>
    </>
  );
}
