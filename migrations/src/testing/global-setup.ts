/**
 * vitest globalSetup for integration projects: a fresh PostgreSQL database per project and run
 * (migrations applied, demo catalogue seeded) and a Redis key prefix of its own, handed to the tests
 * with `provide`. Where no PostgreSQL is reachable but a Docker engine is, testcontainers starts one.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { applyMigrations, dropDatabase, ensureDatabase } from '../runtime/database';
import { createDb } from '../db/client';
import { seedDemoCatalogue } from '../seed/seed';
import { DEFAULT_DATABASE_URL, DEFAULT_REDIS_URL } from '../runtime/env';

import './provided';

async function reachable(url: string): Promise<boolean> {
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString(), connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

export default async function setup(project: TestProject) {
  let base = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL;
  let redisUrl = process.env.TEST_REDIS_URL ?? process.env.REDIS_URL ?? DEFAULT_REDIS_URL;
  const stops: Array<() => Promise<unknown>> = [];

  if (!(await reachable(base))) {
    // No local PostgreSQL: try containers (needs a Docker engine; CI here uses the local services).
    const { GenericContainer } = await import('testcontainers');
    const postgres = await new GenericContainer('postgres:16').withEnvironment({ POSTGRES_HOST_AUTH_METHOD: 'trust' }).withExposedPorts(5432).start();
    const redis = await new GenericContainer('redis:7').withExposedPorts(6379).start();
    base = `postgres://postgres@${postgres.getHost()}:${postgres.getMappedPort(5432)}/postgres`;
    redisUrl = `redis://${redis.getHost()}:${redis.getMappedPort(6379)}`;
    stops.push(() => postgres.stop(), () => redis.stop());
  }

  const id = `${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const name = `nh_test_${project.name.replace(/\W/g, '_')}_${id}`;
  const url = new URL(base);
  url.pathname = `/${name}`;
  const databaseUrl = url.toString();

  await ensureDatabase(databaseUrl);
  await applyMigrations(databaseUrl);
  const db = createDb({ url: databaseUrl, max: 1 });
  await seedDemoCatalogue(db);
  await db.$client.end();

  project.provide('databaseUrl', databaseUrl);
  project.provide('redisUrl', redisUrl);
  project.provide('queuePrefix', `nhtest-${project.name}-${id}`);

  return async () => {
    if (!process.env.KEEP_TEST_DB) await dropDatabase(databaseUrl).catch(() => {});
    for (const stop of stops) await stop();
  };
}
