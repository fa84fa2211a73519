import type { ComponentChildren } from 'preact';
import { PageHeader } from './page-header';

/** The frame of the pages shown without a session. */
export function PublicCard({ title, children }: { title: string; children: ComponentChildren }) {
  return (
    <div class="public-card">
      <p class="brand brand-large">
        <img src="/favicon.svg" alt="" width={28} height={28} />
        Flagpole
      </p>
      <PageHeader title={title} />
      {children}
    </div>
  );
}
