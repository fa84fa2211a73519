import { randomUUID } from 'node:crypto';
import type { AppContext } from '../../app-context.js';
import { checkAgainOnDuplicate } from '../../db/errors.js';
import { recordEvent } from '../../events/service.js';
import { actorOf, type Identity } from '../../http/identity.js';
import { projectEnvironmentNames } from '../../projects/service.js';
import { findEnvironmentVariants } from '../environments/queries.js';
import { attachFeatureEnvironments, setEnvironmentVariants } from '../environments/writes.js';
import { strategiesOf } from '../strategies/queries.js';
import { insertStrategy, setStrategySegments } from '../strategies/writes.js';
import { assertNameFree, describeFeature, describeStrategy, getLiveFeature } from './service.js';
import { insertFeature } from './writes.js';

export interface CloneInput {
  name: string;
  /** Strategies with a `groupId` get the copy's name as theirs (the default), so it rolls out to other users. */
  replaceGroupId?: boolean;
}

/**
 * A copy of the project's live feature under a new name, as Unleash makes it: its description,
 * type and impression data; in each environment its strategies (with their segments) and
 * variants, switched off. Tags, links and favorites stay with the original. Events: the copy's
 * `feature-created` and a `feature-strategy-add` per strategy.
 */
export async function cloneFeature(
  ctx: AppContext,
  identity: Identity,
  project: string,
  sourceName: string,
  input: CloneInput,
) {
  const actor = actorOf(identity);
  const replaceGroupId = input.replaceGroupId ?? true;
  const clone = () =>
    ctx.db.transaction(async (tx) => {
      // Shared: the original cannot be archived or moved while it is copied.
      const source = await getLiveFeature(tx, project, sourceName, { lock: 'share' });
      await assertNameFree(tx, input.name);
      const copy = await insertFeature(tx, {
        name: input.name,
        project,
        description: source.description,
        type: source.type,
        impressionData: source.impressionData,
        createdByUserId: actor.userId,
      });
      const environments = await projectEnvironmentNames(tx, project);
      await attachFeatureEnvironments(tx, copy.name, environments);
      const data = describeFeature(copy);
      recordEvent(tx, actor, { type: 'feature-created', project, featureName: copy.name, data });
      for (const environment of environments) {
        const variants = await findEnvironmentVariants(tx, source.name, environment);
        if (variants?.length) await setEnvironmentVariants(tx, copy.name, environment, variants);
        for (const s of await strategiesOf(tx, source.name, environment)) {
          const parameters =
            replaceGroupId && 'groupId' in s.parameters
              ? { ...s.parameters, groupId: copy.name }
              : s.parameters;
          const strategy = { ...s, id: randomUUID(), featureName: copy.name, parameters };
          const placed = await insertStrategy(tx, strategy);
          if (s.segments.length > 0) await setStrategySegments(tx, strategy.id, s.segments);
          recordEvent(tx, actor, {
            type: 'feature-strategy-add',
            project,
            featureName: copy.name,
            environment,
            data: describeStrategy({ ...strategy, ...placed }),
          });
        }
      }
      return data;
    });
  return checkAgainOnDuplicate(clone, () => assertNameFree(ctx.db, input.name));
}
