// The shapes of the change request API's answers the UI reads (see /docs, "Change Requests").

/** Who made a request, a change, a review or a comment. */
export interface UserSummary {
  id: number | null;
  username: string | null;
  imageUrl: string | null;
}

export type ChangeRequestState =
  | 'Draft'
  | 'In review'
  | 'Approved'
  | 'Scheduled'
  | 'Applied'
  | 'Cancelled'
  | 'Rejected';

export type ChangeAction =
  | 'updateEnabled'
  | 'addStrategy'
  | 'updateStrategy'
  | 'deleteStrategy'
  | 'reorderStrategy'
  | 'patchVariant'
  | 'archiveFeature'
  | 'addDependency'
  | 'deleteDependency'
  | 'addReleasePlan'
  | 'deleteReleasePlan'
  | 'startMilestone'
  | 'changeMilestoneProgression'
  | 'deleteMilestoneProgression'
  | 'resumeMilestoneProgression'
  | 'updateMilestoneStrategy'
  | 'updateSegment'
  | 'deleteSegment';

/** One change of a request; `payload.snapshot` is its target as it was when the change was added. */
export interface Change {
  id: number;
  action: ChangeAction;
  payload: Record<string, unknown> & { snapshot?: Record<string, unknown> };
  /** Why it can no longer be applied as it was reviewed. */
  conflict?: string;
  createdAt: string;
  createdBy: UserSummary;
}

export interface Review {
  createdAt: string;
  createdBy: UserSummary;
}

export interface ChangeRequest {
  id: number;
  title?: string;
  project: string;
  environment: string;
  minApprovals: number;
  state: ChangeRequestState;
  stateTimestamps: Record<string, string>;
  createdAt: string;
  createdBy: UserSummary;
  features: { name: string; conflict?: string; changes: Change[] }[];
  segments: (Change & { name: string })[];
  approvals: Review[];
  rejections: Review[];
  comments: { id: number; text: string; createdAt: string; createdBy: UserSummary }[];
  /** Only while it is Scheduled. */
  schedule?: Schedule;
}

/**
 * When a scheduled request is applied: `pending` waits for then; a `suspended` one will not be
 * (what it changes changed first), a `failed` one could not be; both say why in `reason`.
 */
export interface Schedule {
  status: 'pending' | 'suspended' | 'failed';
  scheduledAt: string;
  reason?: string;
}

/** A scheduled request that changes a flag, as `…/change-requests/scheduled?feature=` lists it. */
export interface ScheduledRef {
  id: number;
  environment: string;
  title?: string;
}

/** How many of a project's requests are in each state (`…/change-requests/count`). */
export interface ChangeRequestCounts {
  applied: number;
  approved: number;
  rejected: number;
  scheduled: number;
  reviewRequired: number;
  total: number;
}

/** One environment of a project as `…/change-requests/config` lists it. */
export interface ChangeRequestConfig {
  environment: string;
  type: string;
  changeRequestEnabled: boolean;
  requiredApprovals: number | null;
}

/** A change as it is sent to be added to a draft: segment changes name no flag. */
export interface ChangeInput {
  feature?: string;
  action: ChangeAction;
  payload?: unknown;
}

/** A request that can no longer change: applied, cancelled or rejected. */
export const isClosed = (state: ChangeRequestState) =>
  state === 'Applied' || state === 'Cancelled' || state === 'Rejected';

/** How many changes a request holds, of flags and of segments. */
export const changeCount = (request: ChangeRequest) =>
  request.features.reduce((n, f) => n + f.changes.length, 0) + request.segments.length;

/** The request's name: its title, or its number. */
export const requestName = (request: Pick<ChangeRequest, 'id' | 'title'>) =>
  request.title || `Change request #${request.id}`;

/** A user's name as a request shows it. */
export const userName = (user: UserSummary) =>
  user.username ?? (user.id === null ? 'Someone' : `User ${user.id}`);
