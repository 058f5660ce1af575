/** The chart's layout, computed by elkjs when the page is built (inspector/vite.config.ts). */
declare module 'virtual:chart-layout' {
  const layout: import('../layout.js').ChartLayout;
  export default layout;
}
