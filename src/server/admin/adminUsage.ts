/** Options that take a value, and the commands they belong to. */
export const VALUE_OPTIONS = {
  '--users': ['import-firebase'],
  '--hash-config': ['import-firebase'],
  '--articles': ['import-firebase'],
  '--role': ['import-firebase', 'users create'],
  '--name': ['users create'],
  '--email': ['invite'],
  '--limit': ['audit'],
  '--to': ['copy-database'],
  '--images': ['import-ghost'],
  '--uploads': ['import-wordpress'],
  '--cover': ['import-ghost', 'import-wordpress'],
} as const satisfies Record<string, readonly CommandName[]>;

export type ValueOption = keyof typeof VALUE_OPTIONS;

/** The command line's grammar; kept apart from the implementations so --help and misuse answer at once. */
export const COMMAND_NAMES = {
  'users list': undefined,
  'users create': 'EMAIL',
  'users show': 'EMAIL',
  'users disable': 'EMAIL',
  'users enable': 'EMAIL',
  'users delete': 'EMAIL',
  'users reset-two-step': 'EMAIL',
  'users role': 'EMAIL ROLE',
  invite: 'ROLE',
  'keys rotate': undefined,
  backup: 'FILE',
  migrate: undefined,
  'import-firebase': undefined,
  audit: undefined,
  'subscribers import': 'FILE',
  'subscribers export': undefined,
  'copy-database': undefined,
  'import-ghost': 'FILE',
  'import-wordpress': 'FILE',
  export: 'FILE',
  'import-export': 'FILE',
} as const satisfies Record<string, 'EMAIL' | 'EMAIL ROLE' | 'ROLE' | 'FILE' | undefined>;

export type CommandName = keyof typeof COMMAND_NAMES;

export const ADMIN_USAGE = `Usage: npm run admin -- [--json] <command>

Operator commands for Inkwell. They read the same configuration variables as the
server (DATABASE_URL, DATA_DIR, ...) and may run while the server is running.

Commands:
  users list              List every account.
  users create EMAIL [--role ROLE] [--name NAME]
                          Make an account without a password, whatever SIGNUP says (how
                          an invite-only site gets its first owner: --role owner). Mails
                          and prints a link, valid 3 days, that sets its password and
                          verifies the address. The role is NEW_ACCOUNT_ROLE unless --role.
  users show EMAIL        Show one account (its role too).
  users role EMAIL ROLE   Give an account a role: reader, contributor, author, editor
                          or owner (this is how a new site names its first owner). The
                          last owner cannot be demoted. Takes effect at once.
  users disable EMAIL     Disable an account: its tokens stop working at once, sign-in
                          and refresh answer USER_DISABLED.
  users enable EMAIL      Enable a disabled account (it signs in again).
  users delete EMAIL      Delete an account and all its articles.
  users reset-two-step EMAIL
                          Turn two-step verification off (someone who lost the phone
                          and the recovery codes); the account is signed out everywhere.
  invite ROLE [--email EMAIL]
                          Print an invitation link for ROLE, as /admin makes one (valid
                          7 days, once; with --email, for that address only, and
                          mailed to it).
  keys rotate             Sign new ID tokens with a new key; tokens signed with the
                          previous key stay valid until they expire. Running servers
                          switch within 30 seconds.
  backup FILE             SQLite: write a consistent copy of the database to FILE (safe
                          while the server runs). PostgreSQL: print the pg_dump command.
  migrate                 Apply pending database migrations.
  audit [--limit N]       The audit log, newest first: role changes, disables, enables,
                          invitations, hides, restores, deletions of another's article
                          and report resolutions (the newest 100 unless --limit says;
                          at most 100000). With --json: one JSON object per line.
  import-firebase --users USERS.json --hash-config HASH.json [--articles ARTICLES.json] [--role ROLE]
                          Move in from Firebase: accounts from "firebase auth:export
                          --format=json" keep their uid and password (verified at first
                          sign-in, then re-hashed), articles keep their id and date.
                          A re-run skips what is there. Accounts get NEW_ACCOUNT_ROLE
                          (author by default) or --role. See docs/migrating-from-firebase.md.
  subscribers import FILE Add the newsletter subscribers of a CSV export (Ghost, Substack,
                          Mailchimp: a column named email). They count as confirmed; an
                          address already here keeps its state.
  subscribers export      Every newsletter subscriber as CSV: email,status,created_at.
  import-ghost EXPORT.json [--images DIR] [--cover URL]
                          Move in from Ghost 5 or 6 (Settings → Advanced → Export):
                          posts (published and drafts; pages are left out and counted) as
                          Markdown with their tags, dates, excerpts and covers; authors as
                          accounts without a password (NEW_ACCOUNT_ROLE); with --images
                          (Ghost's content/images folder) the images as uploads. --cover:
                          the cover of a post without one. A re-run skips what is there.
                          See docs/migrating-from-ghost-and-wordpress.md.
  import-wordpress EXPORT.xml [--uploads DIR] [--cover URL]
                          The same from a WordPress export (Tools → Export, WXR): categories
                          and tags become tags; with --uploads (wp-content/uploads) the
                          images as uploads.
  export FILE.zip         Move out: every article as Markdown with front matter, every
                          image, authors.json, comments.json and subscribers.csv, in one
                          zip (no password hash, key, code or token). Owners download the
                          same from GET /api/export.
  import-export FILE.zip  Bring such an export into a new, empty site: articles, images,
                          comments and subscribers; accounts without a password (they
                          sign in through "Forgot password?"). Refuses a site that is not
                          empty.
  copy-database --to postgres://USER@HOST/DB
                          Move up from SQLite to PostgreSQL: every table into an empty
                          database (migrated first), checked by row counts and checksums,
                          in one transaction. Stop the server first. See docs/deploy.md.

Options:
  --json                  Print the result as JSON (for scripts).
  -h, --help              Show this help.

Exit status: 0 done, 1 failed (e.g. no such account), 2 usage error or an unusable
import file.
`;
