import { Link } from 'react-router';
import { paths } from '../../shared/routes.ts';
import { tagSlug } from '../../shared/tags.ts';

/**
 * An article's tags as links to their pages. On a card they sit above its stretched link
 * (relative z-10), as the author's name does, so each stays clickable. Empty, the list is
 * hidden by its style (.tag-list).
 */
export function TagLinks({ tags }: { tags: readonly string[] }) {
  return (
    <ul className="tag-list">
      {tags.map((tag) => (
        <li key={tag}>
          <Link to={paths.tag(tagSlug(tag))} className="tag-link">
            {tag}
          </Link>
        </li>
      ))}
    </ul>
  );
}
