import type { ChangeRequestState } from '../../change-requests/types';

/** A request's state, coloured by what it asks of people: waiting, done or stopped. */
export function StateBadge({ state }: { state: ChangeRequestState }) {
  return <span class={`badge state-badge state-${state.toLowerCase().replace(' ', '-')}`}>{state}</span>;
}
