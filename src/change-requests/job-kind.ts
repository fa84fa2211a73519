/** The kind of job that applies a scheduled change request (its key: the request's id). */
export const SCHEDULED_JOB_KIND = 'change-request';
