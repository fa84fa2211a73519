import { useEffect, useRef } from 'preact/hooks';
import type { Banner } from '../api/types';
import { useResource } from '../api/use-resource';
import { Button } from '../components/button';
import { Markdown, safeHref } from '../components/markdown';

const VARIANT_SYMBOL: Record<Banner['variant'], string> = {
  info: 'ℹ',
  warning: '⚠',
  error: '⛔',
  success: '✓',
};

function BannerDialog({ banner }: { banner: Banner }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const title = banner.dialogTitle || banner.linkText || 'More info';
  return (
    <>
      <button type="button" class="banner-link" onClick={() => dialog.current?.showModal()}>
        {banner.linkText || 'More info'}
      </button>
      <dialog ref={dialog} class="dialog" aria-label={title}>
        <h2>{title}</h2>
        <div class="dialog-body">
          <Markdown text={banner.dialog ?? ''} />
        </div>
        <div class="actions">
          <Button variant="primary" onClick={() => dialog.current?.close()}>
            Close
          </Button>
        </div>
      </dialog>
    </>
  );
}

function BannerLink({ banner }: { banner: Banner }) {
  if (!banner.link) return null;
  if (banner.link === 'dialog') return <BannerDialog banner={banner} />;
  const href = safeHref(banner.link);
  if (!href) return null;
  return (
    <a class="banner-link" href={href}>
      {banner.linkText || 'More info'}
    </a>
  );
}

export function BannerView({ banner }: { banner: Banner }) {
  return (
    <div class={`banner banner-${banner.variant}${banner.sticky ? ' banner-sticky' : ''}`}>
      {banner.icon !== 'none' && (
        <span class="banner-icon" aria-hidden="true">
          {VARIANT_SYMBOL[banner.variant]}
        </span>
      )}
      <span class="banner-message">
        <Markdown text={banner.message} inlineOnly />
      </span>
      <BannerLink banner={banner} />
    </div>
  );
}

const CHANGED = 'flagpole:banners-changed';

/** Tells the banner strip that banners changed, so it shows them as they are now. */
export function announceBannerChange(): void {
  window.dispatchEvent(new Event(CHANGED));
}

/** The instance's enabled banners (E1), above every page; read again on every page change. */
export function BannerStrip({ path }: { path: string }) {
  const { data, reload } = useResource<{ banners: Banner[] }>('/api/admin/banners');
  useEffect(() => {
    window.addEventListener(CHANGED, reload);
    return () => window.removeEventListener(CHANGED, reload);
  }, [reload]);
  const first = useRef(true);
  useEffect(() => {
    if (first.current) first.current = false;
    else reload();
  }, [path]);
  const shown = data?.banners.filter((b) => b.enabled) ?? [];
  if (shown.length === 0) return null;
  return (
    <section class="banners" aria-label="Announcements">
      {shown.map((banner) => (
        <BannerView key={banner.id} banner={banner} />
      ))}
    </section>
  );
}
