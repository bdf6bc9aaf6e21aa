import { Link } from 'react-router';
import { messages } from '../../shared/messages.ts';
import { paths } from '../../shared/routes.ts';
import { useDocumentTitle } from '../components/useDocumentTitle.ts';

export function NotFoundPage() {
  useDocumentTitle(messages.pageNotFound);
  return (
    <section className="mx-auto max-w-md py-16 text-center">
      <h1 className="text-3xl font-bold">{messages.pageNotFound}</h1>
      <p className="mt-4">
        <Link to={paths.home} className="text-blue-700 underline hover:no-underline dark:text-blue-400">
          {messages.backToHome}
        </Link>
      </p>
    </section>
  );
}
