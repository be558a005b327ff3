/**
 * What makes the API reference page (`/api/api_gateway/docs`, Swagger UI) Vigil's: its title and
 * mark, a bar of its own instead of Swagger UI's (whose logo and "Explore" box are Fastify's and
 * Swagger's), and the operations first: the conventions and the table of every error code come
 * after them (above, they pushed the first operation more than 2,000 px down).
 */

export const DOCS_TITLE = 'Vigil Customer API reference';

/** Vigil's mark, the web interface's favicon (web/public/favicon.svg; docs.page.test.ts holds them equal). */
export const VIGIL_MARK =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><title>Vigil</title><rect width="32" height="32" rx="7" fill="#4c6ef5"/><path d="M16 6l8 3v6c0 5-3.4 9.3-8 11-4.6-1.7-8-6-8-11V9z" fill="#fff"/><path d="M12.5 16l2.5 2.5 4.5-5" stroke="#4c6ef5" stroke-width="2.2" fill="none" stroke-linecap="round" stroke-linejoin="round"/></svg>\n';

/**
 * The sections after the operations: tags of the document that no operation carries (Redoc and
 * other readers show them as sections in the tags' order; Swagger UI through DOCS_SCRIPT).
 */
export const GUIDE_SECTION = 'Using the API';
export const ERROR_CODES_SECTION = 'Error codes';

/**
 * A Swagger UI plugin (plain browser JavaScript, loaded after Swagger UI's bundle): Vigil's bar,
 * and a tag without operations (a section after the operations) shown as a heading and its text
 * rather than as an empty list that folds. The page's initializer adds it (`uiConfig.plugins`
 * in docs.routes.ts).
 */
export const DOCS_SCRIPT = `'use strict';
window.vigilDocsPlugin = function (system) {
  var React = system.React;
  var h = React.createElement;
  function mark() {
    var icon = document.querySelector('link[rel="icon"]');
    return icon ? icon.href : '';
  }
  function Topbar() {
    return h('header', { className: 'vigil-bar' },
      h('div', { className: 'vigil-bar-inner' },
        h('img', { src: mark(), alt: '', width: 28, height: 28 }),
        h('span', { className: 'vigil-bar-name' }, 'Vigil'),
        h('span', { className: 'vigil-bar-what' }, 'Customer API reference')));
  }
  function Section(props) {
    var Markdown = system.getComponent('Markdown', true);
    var id = 'section-' + String(props.tag).toLowerCase().replace(/[^a-z0-9]+/g, '-');
    return h('section', { className: 'vigil-section', 'aria-labelledby': id },
      h('h3', { id: id }, props.tag),
      h(Markdown, { source: props.tagObj.getIn(['tagDetails', 'description']) || '' }));
  }
  return {
    components: { Topbar: Topbar },
    wrapComponents: {
      OperationTag: function (Original) {
        return function (props) {
          var operations = props.tagObj && props.tagObj.get('operations');
          return operations && operations.size === 0 ? h(Section, props) : h(Original, props);
        };
      },
    },
  };
};
`;

/** The bar in the web interface's colours; the error codes' table set like the operations. */
export const DOCS_STYLES = `.vigil-bar { background: #1c2a6e; color: #fff; }
.vigil-bar-inner { box-sizing: border-box; max-width: 1460px; margin: 0 auto; padding: 12px 20px;
  display: flex; align-items: center; gap: 10px; font-family: sans-serif; }
.vigil-bar-name { font-size: 20px; font-weight: 700; }
.vigil-bar-what { font-size: 16px; opacity: 0.85; }
.vigil-section { margin: 40px 0 0; font-family: sans-serif; color: #3b4151; }
.vigil-section h3 { font-size: 24px; margin: 0 0 10px; padding: 10px 0; border-bottom: 1px solid rgba(59,65,81,.3); }
.vigil-section table { border-collapse: collapse; width: 100%; font-size: 14px; }
.vigil-section th, .vigil-section td { text-align: left; padding: 6px 10px 6px 0; vertical-align: top;
  border-bottom: 1px solid rgba(59,65,81,.15); }
.vigil-section code { font-size: 13px; }
@media (max-width: 600px) {
  .vigil-bar-inner { padding: 10px 12px; }
  .vigil-bar-what { font-size: 14px; }
  .vigil-section td, .vigil-section th { padding-right: 6px; }
  .vigil-section td:first-child code { word-break: break-all; }
}
`;
