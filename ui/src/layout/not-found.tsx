import { Link } from '../router';
import { PageHeader } from './page-header';

export function NotFound() {
  return (
    <>
      <PageHeader title="Page not found" />
      <p>
        There is no page at this address. <Link href="/projects">Go to the projects</Link>.
      </p>
    </>
  );
}
