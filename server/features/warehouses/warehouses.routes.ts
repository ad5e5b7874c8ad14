import type { FastifyPluginAsync } from 'fastify';
import type { FeatureOptions } from '../feature-routes';

export const warehousesRoutes: FastifyPluginAsync<FeatureOptions> = async (app, options) => {
  void app;
  void options;
};
