(function () {
  var main = document.querySelector('main');
  if (!main) return;
  var version = main.getAttribute('data-v');
  function filter() {
    var box = document.getElementById('q');
    if (!box) return;
    var q = box.value.replace(/^\s+|\s+$/g, '');
    var items = main.querySelectorAll('li.board, p.bye span');
    var shown = 0;
    for (var i = 0; i < items.length; i++) {
      var el = items[i], hit;
      if (!q) hit = true;
      else if (/^\d+$/.test(q)) {
        var nos = (el.getAttribute('data-n') || '').split(' ');
        hit = el.getAttribute('data-b') === q || nos.indexOf(q) >= 0;
      } else hit = (el.getAttribute('data-s') || '').indexOf(q) >= 0;
      el.style.display = hit ? '' : 'none';
      if (el.classList) el.classList.toggle('hit', !!q && hit);
      if (hit) shown++;
    }
    var count = document.getElementById('count');
    if (count) count.textContent = q ? ('找到 ' + shown + ' 项') : '';
  }
  function bind() {
    var box = document.getElementById('q');
    if (box) box.oninput = filter;
  }
  function reload() {
    var url = location.pathname + location.search + (location.search ? '&' : '?') + 'part=main';
    var box = document.getElementById('q');
    var typed = box ? box.value : null;
    var req = new XMLHttpRequest();
    req.open('GET', url);
    req.onload = function () {
      if (req.status !== 200) return;
      main.innerHTML = req.responseText;
      version = req.getResponseHeader('X-Hall-Version') || version;
      var again = document.getElementById('q');
      if (again && typed !== null) again.value = typed;
      bind();
      filter();
    };
    req.send();
  }
  var waiting = false;
  function seen(v) {
    // a short random wait spreads two hundred phones' requests after each change
    if (!v || v === version || waiting) return;
    waiting = true;
    setTimeout(function () { waiting = false; reload(); }, Math.random() * 1500);
  }
  bind();
  filter();
  if (window.EventSource) {
    var source = new EventSource('/events');
    source.addEventListener('v', function (ev) { seen(ev.data); });
  } else {
    setInterval(function () {
      var req = new XMLHttpRequest();
      req.open('GET', '/version');
      req.onload = function () { if (req.status === 200) seen(req.responseText); };
      req.send();
    }, 15000);
  }
})();
