import { Hono } from 'hono';
import { type AdminEnv, adminAuth } from '../../middleware/auth';
import { appealRoutes } from './appeals';
import { auditRoutes } from './audit';
import { authRoutes } from './auth';
import { buildRoutes } from './build';
import { contactRoutes } from './contact';
import { contentRoutes } from './content';
import { dashboardRoutes } from './dashboard';
import { editRoutes } from './edits';
import { freshnessRoutes } from './freshness';
import { mailRoutes } from './mail';
import { newsletterRoutes } from './newsletter';
import { orderRoutes } from './orders';
import { reportRoutes } from './reports';
import { reviewModerationRoutes } from './reviews';
import { serverRoutes } from './servers';
import { submissionRoutes } from './submissions';

/**
 * Every /api/admin route. The auth middleware comes first and covers the whole tree
 * (mounted as `/api/admin/*`), so a route added here or elsewhere under /api/admin is
 * never reachable without a session; only POST /api/admin/login passes without one.
 */
export const adminRoutes = new Hono<AdminEnv>()
  .use(adminAuth())
  .route('/', authRoutes)
  .route('/dashboard', dashboardRoutes)
  .route('/submissions', submissionRoutes)
  .route('/edits', editRoutes)
  .route('/servers', serverRoutes)
  .route('/reports', reportRoutes)
  .route('/reviews', reviewModerationRoutes)
  .route('/appeals', appealRoutes)
  .route('/freshness', freshnessRoutes)
  .route('/content', contentRoutes)
  .route('/newsletter', newsletterRoutes)
  .route('/contact', contactRoutes)
  .route('/mail', mailRoutes)
  .route('/orders', orderRoutes)
  .route('/audit', auditRoutes)
  .route('/build', buildRoutes);
