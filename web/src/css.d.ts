// Stylesheets are bundled by esbuild; CSS modules give their class names.
declare module '*.module.css' {
  const classes: Record<string, string>;
  export default classes;
}
declare module '*.css';
