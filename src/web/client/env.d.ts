/** Stylesheets imported for their effect: Vite bundles them into the page's CSS. */
declare module "*.css";
