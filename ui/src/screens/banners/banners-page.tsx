import { useState } from 'preact/hooks';
import { api } from '../../api/client';
import type { Banner } from '../../api/types';
import { useResource } from '../../api/use-resource';
import { Button } from '../../components/button';
import { DeleteButton } from '../../components/delete-button';
import { Empty, Loaded, Problem } from '../../components/status';
import { Switch } from '../../components/switch';
import { useAction } from '../../forms/use-action';
import { announceBannerChange, BannerView } from '../../layout/banner-strip';
import { PageHeader } from '../../layout/page-header';
import type { RouteProps } from '../../router';
import { useCan } from '../../session';
import { BannerForm } from './banner-form';

function BannerItem({ banner, onChanged }: { banner: Banner; onChanged(): void }) {
  const canChange = useCan('UPDATE_INSTANCE_BANNERS');
  const action = useAction();
  const { run, busy, problem } = action;
  const [editing, setEditing] = useState(false);
  const changed = () => {
    onChanged();
    announceBannerChange();
  };
  const toggle = () =>
    run(async () => {
      await api.post(`/api/admin/banners/${banner.id}/${banner.enabled ? 'off' : 'on'}`);
      changed();
    });
  if (editing) {
    return (
      <li>
        <BannerForm
          banner={banner}
          onSaved={() => {
            setEditing(false);
            changed();
          }}
          onCancel={() => setEditing(false)}
        />
      </li>
    );
  }
  return (
    <li class="card banner-item">
      <BannerView banner={banner} />
      <Problem message={problem} />
      <div class="actions">
        {canChange ? (
          <>
            <span class="switch-with-state">
              <Switch
                checked={banner.enabled}
                label={`Show banner ${banner.id}`}
                onToggle={toggle}
                busy={busy}
              />
              {banner.enabled ? 'Shown' : 'Hidden'}
            </span>
            <Button onClick={() => setEditing(true)}>Edit</Button>
            <DeleteButton
              confirm={{
                title: 'Delete this banner?',
                body: <p>“{banner.message}” is deleted for good.</p>,
                confirmLabel: 'Delete banner',
              }}
              onDelete={async () => {
                await api.del(`/api/admin/banners/${banner.id}`);
                changed();
              }}
              action={action}
            />
          </>
        ) : (
          <span class="muted">{banner.enabled ? 'Shown' : 'Hidden'}</span>
        )}
      </div>
    </li>
  );
}

/** The banners shown above every page to every user, while they are switched on. */
export function BannersPage(_props: RouteProps) {
  const banners = useResource<{ banners: Banner[] }>('/api/admin/banners');
  const canChange = useCan('UPDATE_INSTANCE_BANNERS');
  const [creating, setCreating] = useState(false);
  return (
    <>
      <PageHeader
        title="Banners"
        actions={
          canChange &&
          !creating && (
            <Button variant="primary" onClick={() => setCreating(true)}>
              New banner
            </Button>
          )
        }
      />
      {creating && (
        <BannerForm
          banner={null}
          onSaved={() => {
            setCreating(false);
            banners.reload();
            announceBannerChange();
          }}
          onCancel={() => setCreating(false)}
        />
      )}
      <Loaded resources={[banners]}>
        {({ banners: list }) =>
          list.length === 0 ? (
            <Empty>There are no banners.</Empty>
          ) : (
            <ul class="banner-list">
              {list.map((b) => (
                <BannerItem key={b.id} banner={b} onChanged={banners.reload} />
              ))}
            </ul>
          )
        }
      </Loaded>
    </>
  );
}
