/* The hall's page script (ES5, for old phone browsers; same-origin only, nothing sent but page requests).
 * - board search as one types (a number says whether it is a board or a 序号)
 * - refresh in place when the file changes (server-sent events, or polling)
 * - pages that hold when the Wi-Fi drops: every page seen is kept in localStorage; links are followed in
 *   the page, and offline the kept copy is shown with "离线，X 分钟前" until the network is back
 * - "这是我": a player marks themselves once (kept in this browser only); the index and the round pages
 *   then show their board first
 * - a deputy's result typed offline waits on the phone, marked, and is sent when the network is back
 *   (or says it was not sent) — never silently lost
 * - a game record stepped through move by move
 */
(function () {
  var main = document.querySelector('main');
  if (!main) return;
  var version = main.getAttribute('data-v');
  var KEEP = 'xq.page:', ME = 'xq.me', QUEUE = 'xq.queue';
  var net = document.getElementById('net');
  var offlineSince = null;  // when the shown copy was fetched, while offline

  function store(key, value) {
    try { localStorage.setItem(key, JSON.stringify(value)); return true; } catch (e) {
      evict(); try { localStorage.setItem(key, JSON.stringify(value)); return true; } catch (e2) { return false; }
    }
  }
  function load(key) {
    try { var t = localStorage.getItem(key); return t ? JSON.parse(t) : null; } catch (e) { return null; }
  }
  function evict() {  // drop the oldest kept pages (oldest half)
    var kept = [];
    for (var i = 0; i < localStorage.length; i++) {
      var k = localStorage.key(i);
      if (k && k.indexOf(KEEP) === 0) { var v = load(k); kept.push([v && v.at || 0, k]); }
    }
    kept.sort(function (a, b) { return a[0] - b[0]; });
    for (var j = 0; j < Math.max(1, kept.length / 2); j++) if (kept[j]) localStorage.removeItem(kept[j][1]);
  }
  function here() { return location.pathname; }
  function isPage(path) { return path.indexOf('/d/') !== 0 && path.indexOf('/static/') !== 0; }

  /* ---------------------------------------------------------------- offline copies */
  function keep(path, at) {
    if (!isPage(path)) return;
    var tabs = document.querySelector('nav.tabs');
    store(KEEP + path, {at: at || Date.now(), title: document.title, main: main.innerHTML,
                        tabs: tabs ? tabs.outerHTML : '', v: version});
  }
  function minutes(at) { return Math.max(0, Math.round((Date.now() - at) / 60000)); }
  function showOffline(at) {
    offlineSince = at;
    if (!net) return;
    net.textContent = '离线，' + minutes(at) + ' 分钟前的内容；网络恢复后自动更新';
    net.hidden = false;
  }
  function showOnline() {
    offlineSince = null;
    if (net) { net.hidden = true; net.textContent = ''; }
  }
  setInterval(function () { if (offlineSince !== null) showOffline(offlineSince); }, 30000);

  function swap(page, path, push) {
    main.innerHTML = page.main;
    document.title = page.title;
    var tabs = document.querySelector('nav.tabs');
    if (page.tabs) {
      var box = document.createElement('div');
      box.innerHTML = page.tabs;
      if (tabs) tabs.parentNode.replaceChild(box.firstChild, tabs);
      else document.body.insertBefore(box.firstChild, net || main);
    } else if (tabs) tabs.parentNode.removeChild(tabs);
    if (push) history.pushState({path: path}, '', path);
    version = page.v || version;
    window.scrollTo(0, 0);
    bind();
  }
  function get(url, done, failed) {
    var req = new XMLHttpRequest();
    req.open('GET', url);
    req.timeout = 8000;
    req.onload = function () { if (req.status === 200 || req.status === 404) done(req); else failed(req); };
    req.onerror = req.ontimeout = function () { failed(null); };
    req.send();
  }
  function open(path, push) {
    get(path, function (req) {
      var doc = new DOMParser().parseFromString(req.responseText, 'text/html');
      var m = doc.querySelector('main'), t = doc.querySelector('nav.tabs');
      if (!m) { location.href = path; return; }
      swap({main: m.innerHTML, title: doc.title, tabs: t ? t.outerHTML : '', v: m.getAttribute('data-v')}, path, push);
      showOnline();
      if (req.status === 200) keep(path);
    }, function () {
      var page = load(KEEP + path);
      if (page) { swap(page, path, push); showOffline(page.at); }
      else if (net) { net.textContent = '离线：这一页还没有在本机打开过，网络恢复后再试'; net.hidden = false; }
    });
  }
  document.addEventListener('click', function (ev) {
    var a = ev.target;
    while (a && a.tagName !== 'A') a = a.parentNode;
    if (!a || !a.getAttribute('href') || a.target || ev.ctrlKey || ev.metaKey || ev.shiftKey) return;
    if (a.host !== location.host || !isPage(a.pathname)) return;
    if (a.pathname === location.pathname && a.hash) return;  // an anchor on this page
    if (a.getAttribute('data-go') !== null || a.parentNode.getAttribute('data-ply') !== null) return;
    ev.preventDefault();
    open(a.pathname + a.search, true);
  });
  window.addEventListener('popstate', function () { open(here() + location.search, false); });

  /* ---------------------------------------------------------------- board search */
  function filter() {
    var box = document.getElementById('q');
    if (!box) return;
    var q = box.value.replace(/^\s+|\s+$/g, '');
    var items = main.querySelectorAll('li.board, p.bye span');
    var shown = 0, boards = 0, players = 0;
    for (var i = 0; i < items.length; i++) {
      var el = items[i], hit, why = '';
      var nos = (el.getAttribute('data-n') || '').split(' ');
      if (!q) hit = true;
      else if (/^\d+$/.test(q)) {
        var onBoard = el.getAttribute('data-b') === q, at = nos.indexOf(q);
        hit = onBoard || at >= 0;
        if (onBoard) { why = '台次 ' + q; boards++; }
        if (at >= 0) {
          why += (why ? '，' : '') + (el.getAttribute('data-b') ? (at === 0 ? '红方' : '黑方') : '') + '序号 ' + q;
          players++;
        }
      } else hit = (el.getAttribute('data-s') || '').indexOf(q) >= 0;
      el.style.display = hit ? '' : 'none';
      if (el.classList) el.classList.toggle('hit', !!q && hit);
      var tag = el.querySelector && el.querySelector('.why');
      if (tag) { tag.textContent = why; tag.hidden = !why; }
      if (hit) shown++;
    }
    var count = document.getElementById('count');
    if (count) {
      var text = q ? ('找到 ' + shown + ' 项') : '';
      if (q && /^\d+$/.test(q)) text += '：台次 ' + q + ' 有 ' + boards + ' 台，序号 ' + q + ' 有 ' + players + ' 人';
      count.textContent = text;
    }
  }

  /* ---------------------------------------------------------------- 这是我 */
  function me() { return load(ME); }
  function markMe() {
    var mine = me();
    var button = document.getElementById('this-is-me');
    if (button) {
      var gi = button.getAttribute('data-gi'), no = button.getAttribute('data-no');
      var mark = mine && mine.gi === gi && mine.no === no;
      button.hidden = false;
      button.setAttribute('aria-pressed', mark ? 'true' : 'false');
      button.textContent = mark ? '已标记为我（点此取消）' : '这是我';
      var note = document.getElementById('me-note');
      if (note) note.hidden = false;
      button.onclick = function () {
        if (mark) localStorage.removeItem(ME);
        else store(ME, {gi: gi, no: no, name: button.getAttribute('data-name')});
        markMe();
      };
    }
    if (!mine) return;
    // a round page of my group: my board first, marked
    var path = here().split('/');
    if (path[1] === 'g' && path[2] === mine.gi) {
      var items = main.querySelectorAll('li.board');
      for (var i = items.length - 1; i >= 0; i--) {
        if ((items[i].getAttribute('data-n') || '').split(' ').indexOf(mine.no) >= 0 && items[i].id.indexOf('-') < 0) {
          items[i].className += ' me';
          items[i].parentNode.insertBefore(items[i], items[i].parentNode.firstChild);
          break;
        }
      }
    }
    // the index: where I sit in my group's current round
    var box = document.getElementById('me');
    var group = main.querySelector('section.group[data-gi="' + mine.gi + '"]');
    if (box && group) {
      var seats = {};
      try { seats = JSON.parse(group.getAttribute('data-seats') || '{}'); } catch (e) {}
      var seat = seats[mine.no], round = group.getAttribute('data-round');
      var text = '';
      if (!round) text = '尚未编排';
      else if (!seat) text = '第 ' + round + ' 轮：本轮没有你的对局';
      else if (seat.length === 1) text = '第 ' + round + ' 轮：' + seat[0];
      else if (seat[4]) text = '第 ' + round + ' 轮 第 ' + seat[0] + ' 台已赛（' + seat[4] + '），下一轮尚未编排';
      else text = '第 ' + round + ' 轮已编排：第 ' + seat[0] + ' 台，执' + seat[1] + '，对 ' + seat[2] + ' ' + seat[3];
      box.innerHTML = '';
      var head = document.createElement('p'), link = document.createElement('a');
      link.href = '/g/' + mine.gi + '/p/' + mine.no;
      link.textContent = '我：' + mine.no + '号 ' + mine.name;
      head.appendChild(link);
      var line = document.createElement('p');
      line.textContent = text;
      box.appendChild(head); box.appendChild(line);
      if (seat && seat.length > 1) {
        var go = document.createElement('a');
        go.href = '/g/' + mine.gi + '/r/' + round + '/b/' + seat[0];
        go.textContent = '查看本台';
        box.appendChild(go);
      }
      box.hidden = false;
    }
  }

  /* ---------------------------------------------------------------- a game record, move by move */
  var GLYPH = {K: '帥', A: '仕', B: '相', N: '傌', R: '俥', C: '炮', P: '兵',
               k: '將', a: '士', b: '象', n: '馬', r: '車', c: '砲', p: '卒'};
  function draw(svg, fen) {
    var layer = svg.querySelector('g.pieces'), ns = 'http://www.w3.org/2000/svg';
    while (layer.firstChild) layer.removeChild(layer.firstChild);
    var rows = fen.split(' ')[0].split('/');
    for (var i = 0; i < rows.length; i++) {
      var f = 0;
      for (var j = 0; j < rows[i].length; j++) {
        var ch = rows[i].charAt(j);
        if (/\d/.test(ch)) { f += +ch; continue; }
        var g = document.createElementNS(ns, 'g'), c = document.createElementNS(ns, 'circle'), t = document.createElementNS(ns, 'text');
        g.setAttribute('class', 'pc ' + (ch === ch.toUpperCase() ? 'r' : 'k'));
        g.setAttribute('transform', 'translate(' + (f * 40) + ',' + (i * 40) + ')');
        c.setAttribute('r', '17'); t.setAttribute('y', '7'); t.textContent = GLYPH[ch] || '?';
        g.appendChild(c); g.appendChild(t); layer.appendChild(g);
        f++;
      }
    }
  }
  function viewer() {
    var box = main.querySelector('.viewer');
    if (!box) return;
    var svg = box.querySelector('svg'), moves = box.querySelectorAll('ol.moves li');
    var ply = +box.getAttribute('data-ply'), label = document.getElementById('ply');
    function go(n) {
      ply = Math.max(0, Math.min(moves.length, n));
      draw(svg, ply ? moves[ply - 1].getAttribute('data-fen') : box.getAttribute('data-start'));
      for (var i = 0; i < moves.length; i++) moves[i].className = (i === ply - 1) ? 'at' : '';
      if (label) label.textContent = (ply ? moves[ply - 1].textContent : '开局') + '（' + ply + '/' + moves.length + '）';
      if (ply && moves[ply - 1].scrollIntoView) moves[ply - 1].scrollIntoView({block: 'nearest'});
    }
    box.onclick = function (ev) {
      var a = ev.target;
      while (a && a !== box && a.tagName !== 'A') a = a.parentNode;
      if (!a || a === box) return;
      var step = a.getAttribute('data-go'), li = a.parentNode;
      if (step !== null) go(step === 'end' ? moves.length : step === '0' ? 0 : ply + (+step));
      else if (li.getAttribute('data-ply') !== null) go(+li.getAttribute('data-ply'));
      else return;
      ev.preventDefault();
    };
    document.onkeydown = function (ev) {
      if (!main.querySelector('.viewer')) return;
      if (ev.key === 'ArrowRight') { go(ply + 1); ev.preventDefault(); }
      if (ev.key === 'ArrowLeft') { go(ply - 1); ev.preventDefault(); }
    };
  }

  /* ---------------------------------------------------------------- a deputy's results, offline-proof */
  function queue() { return load(QUEUE) || []; }
  function setQueue(items) { store(QUEUE, items); }
  function deputyForms() { return main.querySelectorAll('ol.deputy form'); }
  function showQueue() {
    var items = queue(), box = document.getElementById('queue');
    var lines = main.querySelectorAll('ol.deputy li');
    for (var i = 0; i < lines.length; i++) {
      var tag = lines[i].querySelector('.unsent');
      if (!tag) continue;
      tag.hidden = true; tag.textContent = '';
      for (var j = 0; j < items.length; j++) {
        if (items[j].action === location.pathname && String(items[j].board) === lines[i].getAttribute('data-board')) {
          tag.textContent = items[j].error ? ('未提交：' + items[j].error + '（' + items[j].label + '）')
                                           : ('尚未发送：' + items[j].label + '，网络恢复后自动发送');
          tag.hidden = false;
        }
      }
    }
    if (box) {
      var waiting = 0, failed = 0;
      for (var k = 0; k < items.length; k++) if (items[k].action === location.pathname) { if (items[k].error) failed++; else waiting++; }
      box.hidden = !(waiting || failed);
      box.textContent = (waiting ? waiting + ' 条成绩在本机等待网络，恢复后自动发送。' : '') +
                        (failed ? failed + ' 条成绩未能提交，请看各台说明并重新录入。' : '');
    }
  }
  function send(item, done) {
    var req = new XMLHttpRequest();
    req.open('POST', item.action);
    req.setRequestHeader('Content-Type', 'application/x-www-form-urlencoded');
    req.timeout = 10000;
    req.onload = function () {
      if (req.status === 200) { done('sent', req); return; }
      if (req.status === 429 || req.status >= 500) { done('retry', req); return; }
      var doc = new DOMParser().parseFromString(req.responseText, 'text/html'), msg = doc.querySelector('.msg');
      done('refused', req, msg ? msg.textContent : ('HTTP ' + req.status));
    };
    req.onerror = req.ontimeout = function () { done('retry', null); };
    req.send(item.body);
  }
  var flushing = false;
  function flush() {
    if (flushing) return;
    var items = queue(), next = null;
    for (var i = 0; i < items.length; i++) if (!items[i].error) { next = items[i]; break; }
    if (!next) { showQueue(); return; }
    flushing = true;
    send(next, function (outcome, req, why) {
      flushing = false;
      var now = queue(), kept = [];
      for (var j = 0; j < now.length; j++) {
        if (now[j].id !== next.id) kept.push(now[j]);
        else if (outcome === 'refused') { now[j].error = why; kept.push(now[j]); }
        else if (outcome === 'retry') kept.push(now[j]);
      }
      setQueue(kept);
      if (outcome === 'sent' && next.action === location.pathname && req) {
        var doc = new DOMParser().parseFromString(req.responseText, 'text/html'), m = doc.querySelector('main');
        if (m) { main.innerHTML = m.innerHTML; bind(); }
        showOnline();
        flush();
      } else if (outcome === 'retry') { showQueue(); setTimeout(flush, 5000); }
      else { showQueue(); flush(); }
    });
  }
  function deputy() {
    var forms = deputyForms();
    for (var i = 0; i < forms.length; i++) {
      forms[i].onsubmit = function (ev) {
        var form = this, button = ev.submitter || document.activeElement;
        if (!button || button.name !== 'result') return;
        ev.preventDefault();
        var fields = form.querySelectorAll('input[type=hidden]'), body = [];
        for (var j = 0; j < fields.length; j++) body.push(encodeURIComponent(fields[j].name) + '=' + encodeURIComponent(fields[j].value));
        body.push('result=' + encodeURIComponent(button.value));
        var board = form.querySelector('input[name=board]').value;
        var items = queue(), kept = [];
        for (var k = 0; k < items.length; k++) if (!(items[k].action === form.getAttribute('action') && String(items[k].board) === board)) kept.push(items[k]);
        kept.push({id: Date.now() + ':' + board, action: form.getAttribute('action'), board: board,
                   label: button.textContent, body: body.join('&'), at: Date.now()});
        setQueue(kept);  // kept on the phone first: nothing is lost if the network is gone
        showQueue();
        flush();
      };
    }
    if (forms.length) { showQueue(); flush(); }
  }

  /* ---------------------------------------------------------------- refresh in place */
  function bind() {
    var box = document.getElementById('q');
    if (box) box.oninput = filter;
    filter();
    markMe();
    viewer();
    deputy();
  }
  function reload() {
    var path = here();
    var url = path + location.search + (location.search ? '&' : '?') + 'part=main';
    var box = document.getElementById('q');
    var typed = box ? box.value : null;
    get(url, function (req) {
      if (req.status !== 200) return;
      // a deputy's "第 11 台已提交" stays: the refresh the send itself announced must not wipe it
      var notice = main.querySelector('.notice');
      main.innerHTML = req.responseText;
      if (notice && !main.querySelector('.notice')) {
        var queueBox = main.querySelector('#queue');
        if (queueBox) queueBox.parentNode.insertBefore(notice, queueBox);
        else main.insertBefore(notice, main.firstChild);
      }
      version = req.getResponseHeader('X-Hall-Version') || version;
      var again = document.getElementById('q');
      if (again && typed !== null) again.value = typed;
      showOnline();
      bind();
      keep(path);
    }, function () {});
  }
  var waiting = false;
  function seen(v) {
    // fetched at once: the server spreads its announcements to the phones over a fraction of a second
    if (!v || v === version || waiting) return;
    waiting = true;
    setTimeout(function () { waiting = false; reload(); }, 0);
  }
  function lost() {
    var page = load(KEEP + here());
    showOffline(page ? page.at : Date.now());
  }
  function back() {
    if (offlineSince !== null) { reload(); flush(); }
  }
  window.addEventListener('offline', lost);
  window.addEventListener('online', back);

  bind();
  keep(here());
  if (window.EventSource) {
    var source = new EventSource('/events');
    source.addEventListener('v', function (ev) { seen(ev.data); });
    source.onopen = back;
    source.onerror = function () { if (source.readyState !== 1) lost(); };
  } else {
    setInterval(function () {
      get('/version', function (req) { if (req.status === 200) { back(); seen(req.responseText); } }, lost);
    }, 15000);
  }
})();
