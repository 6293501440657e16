// Vite handles CSS imports in the bundle.
declare module "*.css";
