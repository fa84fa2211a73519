import type { Queryable, Transaction } from '../db/database.js';
import type { EventInput } from '../events/service.js';
import { ValidationError } from '../http/errors.js';
import { setChangeRequestApprovals as setApprovals } from './store.js';

// Which environments of a project take changes only through change requests, and how many
// approvals those need (a column of the project's link to the environment).

/** The approvals a change request needs: as Unleash does, 1 when not given and at most 10. */
export function approvalsWithinLimits(requested: number | null | undefined): number {
  return Math.min(10, Math.max(1, requested ?? 1));
}

/**
 * Whether changes in an environment of the project need a change request, with the approvals it
 * needs (null: they do not); false when the environment is not linked to the project.
 */
export function setChangeRequestApprovals(
  db: Queryable,
  id: string,
  environment: string,
  approvals: number | null,
): Promise<boolean> {
  return setApprovals(db, id, environment, approvals);
}

/** Change requests turned on in the new project's environments that ask for them, with their events. */
export async function requireChangeRequests(
  tx: Transaction,
  project: string,
  linked: string[],
  wanted: readonly { name: string; requiredApprovals?: number | null }[] = [],
): Promise<EventInput[]> {
  const events: EventInput[] = [];
  for (const [index, { name, requiredApprovals }] of wanted.entries()) {
    if (!linked.includes(name)) {
      throw new ValidationError(
        `A new project gets only the enabled environments; "${name}" is not one of them.`,
        [
          {
            path: `changeRequestEnvironments.${index}.name`,
            message: `No enabled environment is named "${name}".`,
          },
        ],
      );
    }
    const approvals = approvalsWithinLimits(requiredApprovals);
    await setApprovals(tx, project, name, approvals);
    events.push({
      type: 'change-request-configuration-updated',
      project,
      environment: name,
      data: { changeRequestsEnabled: true, requiredApprovals: approvals },
    });
  }
  return events;
}
