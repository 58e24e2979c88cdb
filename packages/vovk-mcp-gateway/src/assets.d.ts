// The style sheets the explorer's components import (CSS Modules, compiled by the app's Next.js build).
declare module '*.module.css' {
  const classes: Readonly<Record<string, string>>;
  export default classes;
}
declare module '*.css';
