import { useResource } from '../../api/use-resource';
import { Empty, Loaded } from '../../components/status';
import { formatDateTime } from '../../format';

interface Delivery {
  id: string;
  createdAt: string;
  state: 'success' | 'failed';
  stateDetails: string;
  event: { type: string; featureName: string | null };
}

/** The integration's last deliveries, newest first: what was sent, and whether it arrived. */
export function IntegrationDeliveries({ id }: { id: number }) {
  const deliveries = useResource<{ integrationEvents: Delivery[] }>(
    `/api/admin/addons/${id}/events?limit=20`,
  );
  return (
    <section aria-labelledby="deliveries-title">
      <h2 id="deliveries-title">Last deliveries</h2>
      <Loaded resources={[deliveries]}>
        {({ integrationEvents }) =>
          integrationEvents.length === 0 ? (
            <Empty>Nothing sent yet.</Empty>
          ) : (
            <table class="table">
              <caption class="visually-hidden">Last deliveries, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Event</th>
                  <th scope="col">Result</th>
                </tr>
              </thead>
              <tbody>
                {integrationEvents.map((d) => (
                  <tr key={d.id}>
                    <td data-label="When">{formatDateTime(d.createdAt)}</td>
                    <th scope="row" data-label="Event">
                      {d.event.type}
                      {d.event.featureName && <span class="muted"> {d.event.featureName}</span>}
                    </th>
                    <td data-label="Result">
                      <span class={`state state-${d.state === 'success' ? 'on' : 'off'}`}>
                        {d.state === 'success' ? 'Delivered' : 'Failed'}
                      </span>{' '}
                      <span class="muted">{d.stateDetails}</span>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )
        }
      </Loaded>
    </section>
  );
}
