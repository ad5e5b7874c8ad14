import type { FastifyPluginAsync } from 'fastify';
import type { FeatureOptions } from '../feature-routes';

export const layoutRoutes: FastifyPluginAsync<FeatureOptions> = async (app, options) => {
  void app;
  void options;
};
