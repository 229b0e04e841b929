#!/usr/bin/env node
// The `vetted` command. The sources are TypeScript; tsx compiles them on load, so `npx vetted` always runs
// the code in this checkout (no build step to forget).
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/main.ts');
