import { call, expectStatus } from './http.js';
import type { Random } from './seeded-random.js';

// Scheduled change requests across kill -9: each round schedules one, due at a random moment of
// the round (often while the process is killed), that adds one strategy titled after it. Whatever
// the kills, a request is applied whole with its new state or not at all, never twice; and once a
// process runs past its time, it is applied (no job is lost).

const PROJECT = 'jobs';
const FLAG = 'scheduled';
const CR = `/api/admin/projects/${PROJECT}/change-requests`;

interface Scheduled {
  id: number;
  title: string;
  at: number;
}

export class ScheduledRequests {
  private token: string | undefined;
  readonly scheduled: Scheduled[] = [];

  /** The project (change requests on in production), its flag, and a PAT of the seeded Admin, once. */
  async setUp(base: string, adminToken: string): Promise<void> {
    if (this.token) return;
    await expectStatus(base, 'POST', '/api/admin/projects', 201, {
      token: adminToken,
      body: { id: PROJECT, name: PROJECT },
    });
    await expectStatus(base, 'POST', `/api/admin/projects/${PROJECT}/features`, 201, {
      token: adminToken,
      body: { name: FLAG },
    });
    await expectStatus(
      base,
      'PUT',
      `/api/admin/projects/${PROJECT}/environments/production/change-requests/config`,
      200,
      {
        token: adminToken,
        body: { changeRequestsEnabled: true, requiredApprovals: 1 },
      },
    );
    const login = await call(base, 'POST', '/auth/simple/login', {
      body: { username: 'admin', password: 'unleash4all' },
    });
    if (!login.answered || login.status !== 200) throw new Error(`sign-in failed: ${JSON.stringify(login)}`);
    const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
    const pat = await expectStatus(base, 'POST', '/api/admin/user/tokens', 201, {
      cookie,
      body: { description: 'crash test', expiresAt: new Date(Date.now() + 86_400_000).toISOString() },
    });
    this.token = pat.secret;
  }

  /** A request, approved (an Admin approves their own) and scheduled within `withinMs` from now. */
  async scheduleOne(base: string, round: number, random: Random, withinMs: number): Promise<void> {
    const token = this.token!;
    const title = `job-${round}`;
    const draft = await expectStatus(
      base,
      'POST',
      `/api/admin/projects/${PROJECT}/environments/production/change-requests`,
      200,
      {
        token,
        body: { feature: FLAG, action: 'addStrategy', payload: { name: 'default', title } },
      },
    );
    for (const state of ['In review', 'Approved']) {
      await expectStatus(base, 'PUT', `${CR}/${draft.id}/state`, 200, { token, body: { state } });
    }
    const at = Date.now() + random.int(50, withinMs);
    await expectStatus(base, 'PUT', `${CR}/${draft.id}/state`, 200, {
      token,
      body: { state: 'Scheduled', scheduledAt: new Date(at).toISOString() },
    });
    this.scheduled.push({ id: draft.id, title, at });
  }

  /**
   * What holds after any kill: each request applied (with exactly one strategy of its title and one
   * `change-request-applied` event) or still waiting with none. With `allDue`, every request whose
   * time has passed must have been applied. Returns the problems found.
   */
  async check(base: string, adminToken: string, allDue = false): Promise<string[]> {
    if (!this.token) return [];
    const problems: string[] = [];
    const environment = await expectStatus(
      base,
      'GET',
      `/api/admin/projects/${PROJECT}/features/${FLAG}/environments/production`,
      200,
      { token: adminToken },
    );
    const applied = await expectStatus(
      base,
      'GET',
      '/api/admin/events?type=change-request-applied&limit=1000',
      200,
      {
        token: adminToken,
      },
    );
    for (const { id, title, at } of this.scheduled) {
      const request = await expectStatus(base, 'GET', `${CR}/${id}`, 200, { token: this.token });
      const strategies = environment.strategies.filter(
        (s: { title: string | null }) => s.title === title,
      ).length;
      const events = applied.events.filter(
        (e: { data: { changeRequestId: number } }) => e.data.changeRequestId === id,
      ).length;
      if (request.state === 'Applied') {
        if (strategies !== 1 || events !== 1) {
          problems.push(
            `request ${id} is applied with ${strategies} strategies of its own and ${events} applied events`,
          );
        }
      } else if (request.state !== 'Scheduled' || request.schedule?.status !== 'pending') {
        problems.push(`request ${id} is ${request.state} (${JSON.stringify(request.schedule)})`);
      } else if (strategies !== 0 || events !== 0) {
        problems.push(
          `request ${id} still waits, with ${strategies} strategies of its own and ${events} applied events`,
        );
      } else if (allDue && at <= Date.now()) {
        problems.push(`request ${id} was due at ${new Date(at).toISOString()} and is not applied`);
      }
    }
    return problems;
  }
}
