/**
 * What each role may do (docs/product.md, Roles): the server asks here. The table itself lives
 * in src/shared/roles.ts so the web app offers exactly what the server allows. Every check is
 * made with the caller's role as the database holds it at that request (the ID token's `role`
 * claim is only a picture for clients), so a change takes effect at once everywhere.
 */
export { can, mayGrant, mayManage, type Action } from '../../shared/roles.ts';
