package export

// csp forbids every fetch: the page's own inline style and script run, and
// images come only from data: URLs.
const csp = `default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:`

const pageCSS = `
body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1f2328;background:#fff}
header{border-bottom:1px solid #d0d7de;margin-bottom:1rem}
.entry{margin:.75rem 0;padding:.5rem .75rem;border-radius:6px}
.off{display:none}
.user{background:#ddf4ff}
.assistant{background:#f6f8fa}
.role{font-weight:600;font-size:.85em;color:#57606a}
.marker{border-top:2px dashed #d0d7de;color:#57606a;font-style:italic}
details{margin:.4rem 0;border:1px solid #d0d7de;border-radius:6px;padding:.25rem .5rem;background:#fff}
summary{cursor:pointer;font-family:ui-monospace,monospace;font-size:.9em}
pre{overflow-x:auto;padding:.5rem;background:#f6f8fa;font:13px/1.4 ui-monospace,monospace;white-space:pre-wrap}
.error{color:#cf222e}
.url{color:#57606a;font-size:.9em}
img{max-width:100%}
`

// pageScript shows the branch chosen in #branch: the entries on the path
// from a root to that leaf, and hides the rest.
const pageScript = `
(function(){
  var sel=document.getElementById('branch');
  if(!sel)return;
  var parent={};
  document.querySelectorAll('[data-entry]').forEach(function(e){parent[e.dataset.entry]=e.dataset.parent||'';});
  function show(leaf){
    var on={};
    for(var id=leaf;id;id=parent[id])on[id]=true;
    document.querySelectorAll('[data-entry]').forEach(function(e){e.classList.toggle('off',!on[e.dataset.entry]);});
  }
  sel.addEventListener('change',function(){show(sel.value);});
  show(sel.value);
})();
`
