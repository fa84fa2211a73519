import type { AppContext } from '../app-context.js';
import {
  archiveFeature,
  archiveFeatureList,
  deleteArchivedFeature,
  deleteArchivedFeatureList,
  reviveFeature,
  reviveFeatureList,
} from '../features/archive/service.js';
import { cloneFeature } from '../features/core/clone-service.js';
import { moveFeature } from '../features/core/move-service.js';
import { createFeature, projectOfFeature } from '../features/core/service.js';
import { patchFeature, setStale, updateFeature } from '../features/core/update-service.js';
import { completeFeature, uncompleteFeature } from '../features/lifecycle/service.js';
import { addLink, changeLink, removeLink } from '../features/links/service.js';
import { changeFeatureTags, changeProjectFeatureTags } from '../features/tags/batch-service.js';
import { tagFeature, untagFeature } from '../features/tags/service.js';
import { change, type Input, inProject } from './change.js';

// The changes of a flag as a whole: its metadata, project, lifecycle, links, tags and archive.

/** A feature named with its project, as in `/api/admin/projects/:projectId/features/:featureName`. */
interface FeatureAt {
  project: string;
  feature: string;
}

/** Features of one project, named in a list. */
interface FeaturesOf {
  project: string;
  features: string[];
}

/** Paths that name a feature but not its project: the permission is the feature's project's. */
const ofNamedFeature = ({ feature }: { feature: string }, ctx: AppContext) => ({
  project: projectOfFeature(ctx.model, feature),
});

export const FEATURE_CHANGES = {
  createFeature: change(
    'CREATE_FEATURE',
    inProject,
    (ctx, identity, c: { project: string; payload: Input<typeof createFeature, 3> }) =>
      createFeature(ctx, identity, c.project, c.payload),
  ),
  cloneFeature: change(
    'CREATE_FEATURE',
    inProject,
    (ctx, identity, c: FeatureAt & { payload: Input<typeof cloneFeature, 4> }) =>
      cloneFeature(ctx, identity, c.project, c.feature, c.payload),
  ),
  updateFeature: change(
    'UPDATE_FEATURE',
    inProject,
    (ctx, identity, c: FeatureAt & { payload: Input<typeof updateFeature, 4> }) =>
      updateFeature(ctx, identity, c.project, c.feature, c.payload),
  ),
  patchFeature: change(
    'UPDATE_FEATURE',
    inProject,
    (ctx, identity, c: FeatureAt & { operations: Input<typeof patchFeature, 4> }) =>
      patchFeature(ctx, identity, c.project, c.feature, c.operations),
  ),
  markStale: change('UPDATE_FEATURE', inProject, (ctx, identity, c: FeaturesOf & { stale: boolean }) =>
    setStale(ctx, identity, c.project, c.features, c.stale),
  ),
  moveFeature: change(
    'MOVE_FEATURE_TOGGLE',
    inProject,
    (ctx, identity, c: FeatureAt & { newProject: string }) =>
      moveFeature(ctx, identity, c.project, c.feature, c.newProject),
  ),
  completeFeature: change(
    'UPDATE_FEATURE',
    inProject,
    (ctx, identity, c: FeatureAt & { payload: Input<typeof completeFeature, 4> }) =>
      completeFeature(ctx, identity, c.project, c.feature, c.payload),
  ),
  uncompleteFeature: change('UPDATE_FEATURE', inProject, (ctx, identity, c: FeatureAt) =>
    uncompleteFeature(ctx, identity, c.project, c.feature),
  ),
  addLink: change(
    'UPDATE_FEATURE',
    inProject,
    (ctx, identity, c: FeatureAt & { payload: Input<typeof addLink, 4> }) =>
      addLink(ctx, identity, c.project, c.feature, c.payload),
  ),
  updateLink: change(
    'UPDATE_FEATURE',
    inProject,
    (ctx, identity, c: FeatureAt & { id: string; payload: Input<typeof changeLink, 5> }) =>
      changeLink(ctx, identity, c.project, c.feature, c.id, c.payload),
  ),
  deleteLink: change('UPDATE_FEATURE', inProject, (ctx, identity, c: FeatureAt & { id: string }) =>
    removeLink(ctx, identity, c.project, c.feature, c.id),
  ),
  addTag: change(
    'UPDATE_FEATURE',
    ofNamedFeature,
    (ctx, identity, c: { feature: string; tag: Input<typeof tagFeature, 3> }) =>
      tagFeature(ctx, identity, c.feature, c.tag),
  ),
  deleteTag: change(
    'UPDATE_FEATURE',
    ofNamedFeature,
    (ctx, identity, c: { feature: string; tag: Input<typeof untagFeature, 3> }) =>
      untagFeature(ctx, identity, c.feature, c.tag),
  ),
  changeTags: change(
    'UPDATE_FEATURE',
    ofNamedFeature,
    (ctx, identity, c: { feature: string; payload: Input<typeof changeFeatureTags, 3> }) =>
      changeFeatureTags(ctx, identity, c.feature, c.payload),
  ),
  changeProjectTags: change(
    'UPDATE_FEATURE',
    inProject,
    (ctx, identity, c: FeaturesOf & { tags: Input<typeof changeProjectFeatureTags, 4> }) =>
      changeProjectFeatureTags(ctx, identity, c.project, c.features, c.tags),
  ),
  archiveFeature: change('DELETE_FEATURE', inProject, (ctx, identity, c: FeatureAt) =>
    archiveFeature(ctx, identity, c.project, c.feature),
  ),
  archiveFeatures: change('DELETE_FEATURE', inProject, (ctx, identity, c: FeaturesOf) =>
    archiveFeatureList(ctx, identity, c.project, c.features),
  ),
  reviveFeatures: change('UPDATE_FEATURE', inProject, (ctx, identity, c: FeaturesOf) =>
    reviveFeatureList(ctx, identity, c.project, c.features),
  ),
  deleteFeatures: change('DELETE_FEATURE', inProject, (ctx, identity, c: FeaturesOf) =>
    deleteArchivedFeatureList(ctx, identity, c.project, c.features),
  ),
  reviveFeature: change('UPDATE_FEATURE', ofNamedFeature, (ctx, identity, c: { feature: string }) =>
    reviveFeature(ctx, identity, c.feature),
  ),
  deleteFeature: change('DELETE_FEATURE', ofNamedFeature, (ctx, identity, c: { feature: string }) =>
    deleteArchivedFeature(ctx, identity, c.feature),
  ),
};
