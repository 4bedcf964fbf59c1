// Regenerates src/routeTree.gen.ts without a build (the Vite plugin does the same during dev and build).
import { Generator, getConfig } from '@tanstack/router-generator';

const config = getConfig({ target: 'react', routesDirectory: './src/routes', generatedRouteTree: './src/routeTree.gen.ts', autoCodeSplitting: true }, process.cwd());
await new Generator({ config, root: process.cwd() }).run();
