/** What Unleash's event search picks events by; each list given means one of its values. */
export interface EventSearch {
  ids?: number[];
  features?: string[];
  projects?: string[];
  types?: string[];
  createdBy?: number[];
  environments?: string[];
  /** Text found in the event's data, in any case. */
  text?: string;
  /** Events of these projects are left out (the caller may not see them). */
  hiddenProjects?: readonly string[];
  from?: Date;
  /** Exclusive. */
  before?: Date;
  limit: number;
  offset: number;
}
