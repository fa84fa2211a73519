import { useState } from 'preact/hooks';
import { api, featurePath, seg } from '../api/client';
import type { FeatureEnvironmentSummary } from '../api/types';
import { changeOrDraft, draftEnvironments } from '../change-requests/drafts';
import { type ConfirmRequest, useConfirm } from '../components/confirm';
import { Switch } from '../components/switch';
import { useCan } from '../session';

interface Props {
  project: string;
  feature: string;
  environment: Pick<FeatureEnvironmentSummary, 'name' | 'type' | 'enabled' | 'hasStrategies'>;
  onSwitched(enabled: boolean): void;
  onError(message: string): void;
  /** Writes On or Off beside the switch. */
  showState?: boolean;
}

function consequence(feature: string, env: Props['environment'], on: boolean): string {
  if (!on) return `Every application using “${env.name}” will get false for “${feature}” from now on.`;
  const who = env.hasStrategies
    ? 'the users its strategies select'
    : 'everyone: it has no strategy yet, so a gradual rollout to 100% is added';
  return `Applications using “${env.name}” will get true for “${feature}” for ${who}.`;
}

/** What the switch asks first: a change that goes to a draft, or a direct one in production; nothing otherwise. */
function question(feature: string, env: Props['environment'], on: boolean, drafted: boolean) {
  const turn = `Turn ${on ? 'on' : 'off'}`;
  if (drafted) {
    return {
      title: `${turn} “${feature}” in ${env.name} through a change request?`,
      body: (
        <p>
          {env.name} takes changes through change requests: this one goes to your draft, and is made once
          others approve it and it is applied.
        </p>
      ),
      confirmLabel: 'Add to draft',
    } satisfies ConfirmRequest;
  }
  if (env.type !== 'production') return undefined;
  return {
    title: `${turn} “${feature}” in ${env.name}?`,
    body: <p>{consequence(feature, env, on)}</p>,
    confirmLabel: `${turn} in ${env.name}`,
    danger: true,
  } satisfies ConfirmRequest;
}

/**
 * On/off of a flag in one environment; a production environment asks first, and one that takes
 * change requests adds the change to the user's draft (the switch stays as the flag is). Read-only
 * without the permission.
 */
export function EnvironmentSwitch({
  project,
  feature,
  environment: env,
  onSwitched,
  onError,
  showState,
}: Props) {
  const canSwitch = useCan('UPDATE_FEATURE_ENVIRONMENT', { project, environment: env.name });
  const confirm = useConfirm();
  const [busy, setBusy] = useState(false);
  const label = `${feature} in ${env.name}`;
  if (!canSwitch) {
    return (
      <span class={`state state-${env.enabled ? 'on' : 'off'}`} title={label}>
        {env.enabled ? 'On' : 'Off'}
        <span class="visually-hidden"> in {env.name}</span>
      </span>
    );
  }
  const toggle = async () => {
    const on = !env.enabled;
    const drafted = (await draftEnvironments(project)).has(env.name);
    const ask = question(feature, env, on, drafted);
    if (ask && !(await confirm(ask))) return;
    setBusy(true);
    try {
      const done = await changeOrDraft(
        project,
        env.name,
        { feature, action: 'updateEnabled', payload: { enabled: on } },
        () => api.post(`${featurePath(project, feature)}/environments/${seg(env.name)}/${on ? 'on' : 'off'}`),
      );
      if (done === 'done') onSwitched(on);
    } catch (error) {
      onError((error as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const control = <Switch checked={env.enabled} label={label} onToggle={toggle} busy={busy} />;
  if (!showState) return control;
  return (
    <span class="switch-with-state">
      {control}
      <span aria-hidden="true">{env.enabled ? 'On' : 'Off'}</span>
    </span>
  );
}
