import type { FastifyPluginAsync } from 'fastify';
import type { FeatureOptions } from '../feature-routes';

export const contactRoutes: FastifyPluginAsync<FeatureOptions> = async (app, options) => {
  void app;
  void options;
};
