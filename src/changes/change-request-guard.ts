import type { AppContext } from '../app-context.js';
import { NoAccessError } from '../http/errors.js';
import type { Identity } from '../http/identity.js';
import { can } from '../http/permissions.js';
import type { Command } from './commands.js';

// Where a project's environment needs change requests, a flag's changes there (on/off, strategies,
// variants, its parent, its archive, the project's segments) are refused unless the caller may skip
// them: `SKIP_CHANGE_REQUEST` there, as in Unleash. Cloning a flag of such a project and moving a
// flag into one are refused to everyone.

/** The project a command changes, and in which of its environments ('all': every one). */
type Touched = { project: string; environments: readonly string[] | 'all' };

function touched(ctx: AppContext, command: Command): Touched | undefined {
  switch (command.action) {
    case 'updateEnabled':
    case 'addStrategy':
    case 'updateStrategy':
    case 'patchStrategy':
    case 'deleteStrategy':
    case 'reorderStrategy':
    case 'patchVariant':
    case 'jsonPatchVariants':
    case 'addReleasePlan':
    case 'deleteReleasePlan':
    case 'startMilestone':
    case 'changeMilestoneProgression':
    case 'deleteMilestoneProgression':
    case 'resumeMilestoneProgression':
    case 'updateMilestoneStrategy':
    case 'changeReleasePlanSafeguard':
    case 'deleteReleasePlanSafeguard':
    case 'changeFeatureEnvSafeguard':
    case 'deleteFeatureEnvSafeguard':
      return { project: command.at.project, environments: [command.at.environment] };
    case 'updateEnabledOfFeatures':
      return { project: command.project, environments: [command.environment] };
    case 'replaceVariantsInEnvironments':
      return { project: command.project, environments: command.payload.environments };
    case 'setStrategySegments':
      return { project: command.payload.projectId, environments: [command.payload.environmentId] };
    case 'addDependency':
    case 'deleteDependency':
    case 'deleteDependencies':
    case 'archiveFeature':
    case 'archiveFeatures':
      return { project: command.project, environments: 'all' };
    case 'updateSegment':
    case 'deleteSegment': {
      const project = ctx.model.segment(command.id)?.project;
      return project ? { project, environments: 'all' } : undefined;
    }
    default:
      return undefined;
  }
}

/** The environments of the project where changes need change requests. */
function protectedEnvironments(ctx: AppContext, project: string): ReadonlyMap<string, number> {
  return ctx.model.project(project)?.changeRequestApprovals ?? new Map();
}

/** Refuses (403) a change the project's change request settings do not let this caller make directly. */
export function assertDirectChangeAllowed(ctx: AppContext, identity: Identity, command: Command): void {
  if (command.action === 'cloneFeature' && protectedEnvironments(ctx, command.project).size > 0) {
    throw new NoAccessError(`Cloning not allowed. Project ${command.project} has change requests enabled.`);
  }
  if (command.action === 'moveFeature' && protectedEnvironments(ctx, command.newProject).size > 0) {
    throw new NoAccessError(
      `Changing project not allowed. Project ${command.newProject} has change requests enabled.`,
    );
  }
  const target = touched(ctx, command);
  if (!target) return;
  const guarded = protectedEnvironments(ctx, target.project);
  const environments = target.environments === 'all' ? [...guarded.keys()] : target.environments;
  for (const environment of environments) {
    if (!guarded.has(environment)) continue;
    if (can(identity, 'SKIP_CHANGE_REQUEST', { project: target.project, environment })) continue;
    throw new NoAccessError(
      `The environment "${environment}" of the project "${target.project}" takes changes through change requests: changing it directly needs the "SKIP_CHANGE_REQUEST" permission.`,
    );
  }
}
