import { seg } from '../../api/client';
import { type ReleaseTemplate, TEMPLATES_PATH } from '../../api/releases';
import type { ContextField, Segment, StrategyType } from '../../api/types';
import { useResource } from '../../api/use-resource';
import { Loaded } from '../../components/status';
import { PageHeader } from '../../layout/page-header';
import type { RouteProps } from '../../router';
import { useCan } from '../../session';
import { StrategySummary } from '../flag/strategy-summary';
import { TEMPLATES_HREF, TemplateForm } from './template-form';

const TRAIL = [{ href: TEMPLATES_HREF, label: 'Release templates' }];

/** A template as text, for those who may use it but not change it. */
function TemplateSummary({ template, segments }: { template: ReleaseTemplate; segments: Segment[] }) {
  return (
    <div class="card">
      {template.description && <p>{template.description}</p>}
      <ol class="milestone-list">
        {template.milestones.map((m) => (
          <li key={m.id} class="milestone">
            <h3>{m.name}</h3>
            {m.strategies.map((s) => (
              <StrategySummary key={s.id} strategy={s} segments={segments} />
            ))}
          </li>
        ))}
      </ol>
    </div>
  );
}

/** One release template (or a new one): its milestones and their strategies. */
export function ReleaseTemplatePage({ params }: RouteProps) {
  const isNew = params.templateId === undefined;
  const template = useResource<ReleaseTemplate>(
    isNew ? null : `${TEMPLATES_PATH}/${seg(params.templateId ?? '')}`,
  );
  const types = useResource<{ strategies: StrategyType[] }>('/api/admin/strategies');
  const contextFields = useResource<ContextField[]>('/api/admin/context');
  const segments = useResource<{ segments: Segment[] }>('/api/admin/segments');
  const canEdit = useCan(isNew ? 'RELEASE_PLAN_TEMPLATE_CREATE' : 'RELEASE_PLAN_TEMPLATE_UPDATE');
  const title = isNew ? 'New release template' : (template.data?.name ?? 'Release template');
  return (
    <Loaded
      resources={[isNew ? null : template, types, contextFields, segments]}
      header={<PageHeader title={title} trail={TRAIL} />}
    >
      {(read, { strategies }, fields, { segments: segmentList }) => (
        <>
          <PageHeader title={title} trail={TRAIL} />
          {canEdit ? (
            <TemplateForm
              template={read ?? null}
              types={strategies}
              contextFields={fields}
              segments={segmentList.filter((s) => s.project === null || s.project === read?.project)}
            />
          ) : (
            read && <TemplateSummary template={read} segments={segmentList} />
          )}
        </>
      )}
    </Loaded>
  );
}
