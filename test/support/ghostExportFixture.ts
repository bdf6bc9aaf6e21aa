/**
 * A Ghost export as Ghost 5 and 6 write it (Ghost Admin → Settings → Import/Export → Export;
 * the JSON shape of Ghost's exporter: `db[0].meta` and `db[0].data` with one array per table,
 * posts carrying `html` beside `lexical`, images under `__GHOST_URL__/content/images/`).
 */
export interface GhostPostFixture {
  id: string;
  title: string;
  slug: string;
  html: string;
  type?: 'post' | 'page';
  status?: 'published' | 'draft' | 'scheduled' | 'sent';
  published_at?: string | null;
  created_at?: string;
  custom_excerpt?: string | null;
  feature_image?: string | null;
  tags?: string[];
  author?: string;
}

export interface GhostUserFixture {
  id: string;
  name: string;
  email: string;
}

export function ghostExport(
  posts: GhostPostFixture[],
  users: GhostUserFixture[],
  tags: { id: string; name: string; slug: string }[],
  version = '5.96.1',
) {
  return {
    db: [
      {
        meta: { exported_on: 1717171717171, version },
        data: {
          posts: posts.map((post) => ({
            id: post.id,
            uuid: `uuid-${post.id}`,
            title: post.title,
            slug: post.slug,
            mobiledoc: null,
            lexical: JSON.stringify({ root: { children: [], type: 'root', version: 1 } }),
            html: post.html,
            comment_id: post.id,
            plaintext: post.html.replace(/<[^>]+>/g, ''),
            feature_image: post.feature_image ?? null,
            featured: 0,
            type: post.type ?? 'post',
            status: post.status ?? 'published',
            locale: null,
            visibility: 'public',
            email_recipient_filter: 'none',
            created_at: post.created_at ?? '2024-05-01T08:00:00.000Z',
            updated_at: '2024-05-02T08:00:00.000Z',
            published_at: post.published_at === undefined ? '2024-05-01T09:30:00.000Z' : post.published_at,
            custom_excerpt: post.custom_excerpt ?? null,
            codeinjection_head: null,
            codeinjection_foot: null,
            custom_template: null,
            canonical_url: null,
            newsletter_id: null,
            show_title_and_feature_image: 1,
          })),
          posts_authors: posts.map((post, index) => ({
            id: `pa-${index}`,
            post_id: post.id,
            author_id: post.author ?? users[0]!.id,
            sort_order: 0,
          })),
          posts_tags: posts.flatMap((post) =>
            (post.tags ?? []).map((tagId, order) => ({
              id: `pt-${post.id}-${order}`,
              post_id: post.id,
              tag_id: tagId,
              sort_order: order,
            })),
          ),
          posts_meta: [],
          tags: tags.map((tag) => ({
            ...tag,
            description: null,
            visibility: tag.name.startsWith('#') ? 'internal' : 'public',
          })),
          users: users.map((user) => ({
            ...user,
            slug: user.name.toLowerCase().replace(/\W+/g, '-'),
            password: '$2a$10$notARealHashButShapedLikeOne0000000000000000000000000',
            status: 'active',
            created_at: '2020-01-01T00:00:00.000Z',
          })),
          roles_users: [],
          settings: [{ id: 's1', key: 'title', value: 'The Old Blog' }],
        },
      },
    ],
  };
}
