import type { Static } from '@sinclair/typebox';
import type { AppContext } from '../app-context.js';
import { recordEvent } from '../events/service.js';
import { NotFoundError } from '../http/errors.js';
import { actorOf, type Identity } from '../http/identity.js';
import { approvalsWithinLimits, getProject, setChangeRequestApprovals } from '../projects/service.js';
import type { ChangeRequestConfigBody, ChangeRequestEnvironmentConfig } from './schemas.js';

/** Each environment of the project, in order: whether changes there need a change request, and how many approvals. */
export function readChangeRequestConfig(
  ctx: AppContext,
  projectId: string,
): Static<typeof ChangeRequestEnvironmentConfig>[] {
  const project = ctx.model.project(projectId);
  if (!project) throw new NotFoundError(`No project has the id "${projectId}".`);
  return project.environments.map((environment) => {
    const approvals = project.changeRequestApprovals.get(environment);
    return {
      environment,
      type: ctx.model.environment(environment)?.type ?? 'development',
      changeRequestEnabled: approvals !== undefined,
      requiredApprovals: approvals ?? null,
    };
  });
}

/** Turns change requests on or off in an environment of the project, with the approvals they need. */
export async function configureChangeRequests(
  ctx: AppContext,
  identity: Identity,
  projectId: string,
  environment: string,
  input: Static<typeof ChangeRequestConfigBody>,
): Promise<void> {
  const approvals = input.changeRequestsEnabled ? approvalsWithinLimits(input.requiredApprovals) : null;
  await ctx.db.transaction(async (tx) => {
    // The project locked: two settings at once are recorded one after the other.
    await getProject(tx, projectId, { lock: 'update' });
    if (!(await setChangeRequestApprovals(tx, projectId, environment, approvals))) {
      throw new NotFoundError(
        `The environment "${environment}" is not enabled in the project "${projectId}".`,
      );
    }
    recordEvent(tx, actorOf(identity), {
      type: 'change-request-configuration-updated',
      project: projectId,
      environment,
      data: { changeRequestsEnabled: approvals !== null, requiredApprovals: approvals },
    });
  });
}
