/*
 * pacer report page: draws the charts from the JSON in #pacer-data as inline SVG. No library, no
 * network: the page opens offline from one file. A workload's runs (named ops in r.ops, each point's
 * per-op figures in p.o) add two per-op charts: each op's rate and response p99 over time. Hover shows
 * values; drag across a time chart to zoom (all time charts follow), double-click or "reset zoom" to zoom
 * out; latency charts have a log scale.
 * After drawing, each chart hovers over its own middle once and keeps the tooltip's text in
 * data-hover (with data-drawn, data-ymax): what the browser test reads.
 */
(function () {
  'use strict';
  var NS = 'http://www.w3.org/2000/svg';
  var data = JSON.parse(document.getElementById('pacer-data').textContent);
  var runs = data.runs;
  var TAG_COLORS = {wait: '#1f77b4', service: '#2ca02c', response: '#d62728'};
  var RUN_COLORS = ['#1f77b4', '#e6550d', '#2ca02c', '#d62728', '#9467bd', '#8c564b', '#e377c2', '#7f7f7f', '#bcbd22',
    '#17becf', '#393b79', '#637939'];
  var LAT_COLORS = {p50: '#2ca02c', p90: '#1f77b4', p99: '#d62728', max: '#8c8c8c'};
  var ERROR_COLORS = ['#d62728', '#9467bd', '#8c564b', '#e377c2', '#bcbd22', '#17becf'];
  var charts = [];
  var zoom = null;

  function el(tag, attrs, parent) {
    var e = document.createElementNS(NS, tag);
    for (var k in attrs) { e.setAttribute(k, attrs[k]); }
    if (parent) { parent.appendChild(e); }
    return e;
  }
  function html(tag, cls, parent, text) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (text != null) { e.textContent = text; }
    if (parent) { parent.appendChild(e); }
    return e;
  }
  function fmt(v, unit) {
    if (v == null || isNaN(v)) { return '-'; }
    if (unit === 'ms') {
      if (v >= 1000) { return (v / 1000).toPrecision(3) + ' s'; }
      if (v >= 1) { return v.toPrecision(3) + ' ms'; }
      return (v * 1000).toPrecision(3) + ' µs';
    }
    return (Math.abs(v) >= 100 ? v.toFixed(0) : Math.abs(v) >= 10 ? v.toFixed(1) : v.toPrecision(3)) + (unit ? ' ' + unit : '');
  }
  function tickText(v, unit) {
    if (unit === 'ms') { return v >= 1000 ? +(v / 1000).toPrecision(3) + 's' : v >= 1 ? +v.toPrecision(3) + 'ms' : +(v * 1000).toPrecision(3) + 'µs'; }
    return Math.abs(v) >= 1e6 ? +(v / 1e6).toPrecision(3) + 'M' : Math.abs(v) >= 1e4 ? +(v / 1e3).toPrecision(3) + 'k' : String(+v.toPrecision(4));
  }
  function niceCeil(v) {
    var p = Math.pow(10, Math.floor(Math.log10(v)));
    var ms = [1, 2, 2.5, 5, 10];
    for (var i = 0; i < ms.length; i++) { if (ms[i] * p >= v - 1e-12) { return ms[i] * p; } }
    return 10 * p;
  }

  /*
   * A chart. o: id, title, kind ('time' | 'spectrum'), unit ('ms', 'ops/s', 'errors/s'), log (initial),
   * logToggle, series [{name, color, dash, cls, pts: [[x, y], ...] (y null: a gap)}], markers
   * [{at, label}], bands [{from, to, label}], cuts [{at, text}], xTicks and xMax (spectrum).
   */
  function Chart(parent, o) {
    this.o = o;
    this.log = !!o.log;
    var box = html('div', 'chart', parent);
    box.id = o.id;
    var head = html('div', 'chartHead', box);
    html('span', 'chartTitle', head, o.title);
    var self = this;
    if (o.logToggle) {
      var label = html('label', 'toggle', head);
      var cb = html('input', null, label);
      cb.type = 'checkbox';
      cb.checked = this.log;
      cb.className = 'logToggle';
      cb.addEventListener('change', function () { self.log = cb.checked; self.draw(); });
      label.appendChild(document.createTextNode(' log scale'));
    }
    this.box = box;
    this.tip = html('div', 'tip', box);
    charts.push(this);
  }

  Chart.prototype.xRange = function () {
    var o = this.o;
    if (o.kind === 'spectrum') { return [0, o.xMax]; }
    if (zoom) { return zoom; }
    var lo = Infinity, hi = -Infinity;
    o.series.forEach(function (s) { s.pts.forEach(function (p) { lo = Math.min(lo, p[0]); hi = Math.max(hi, p[0]); }); });
    (o.span || []).forEach(function (x) { lo = Math.min(lo, x); hi = Math.max(hi, x); });
    if (!(hi > lo)) { hi = lo + 1; }
    return [lo, hi];
  };

  Chart.prototype.draw = function () {
    var o = this.o, self = this;
    var old = this.box.querySelector('svg');
    if (old) { old.remove(); }
    var W = Math.max(320, this.box.clientWidth || 900), H = 290;
    var xr = this.xRange(), x0 = xr[0], x1 = xr[1];
    var L = 66, R = 18, B = 36;
    // the legend's entries in rows as wide as the plot (many runs overlaid need several); each extra row adds height
    var legendRows = [[]], rowW = 0;
    o.series.forEach(function (s) {
      var w = 6.2 * s.name.length + 30;
      if (rowW + w > W - L - R && legendRows[legendRows.length - 1].length) { legendRows.push([]); rowW = 0; }
      legendRows[legendRows.length - 1].push(s);
      rowW += w;
    });
    var extra = legendRows.length > 1 ? 16 * legendRows.length : 0; // several rows go below the axis's name
    H += extra;
    B += extra;
    var px = function (x) { return L + (x - x0) / (x1 - x0) * (W - L - R); };
    // marker labels go in rows above the plot, never over it
    var labels = (o.markers || []).map(function (m) { return {at: m.at, label: m.label, kind: 'marker'}; })
      .concat((o.bands || []).map(function (b) { return {at: b.from, label: b.label, kind: 'band'}; }))
      .filter(function (m) { return m.at >= x0 - 1e-9 && m.at <= x1 + 1e-9; })
      .sort(function (a, b) { return a.at - b.at; });
    var rowEnds = [];
    labels.forEach(function (m) {
      var x = px(m.at), w = 6.1 * m.label.length + 8;
      var row = -1;
      for (var r = 0; r < rowEnds.length; r++) { if (rowEnds[r] <= x) { row = r; break; } }
      if (row < 0 && rowEnds.length < 4) { row = rowEnds.length; rowEnds.push(0); }
      if (row < 0) { // no room: the shortest-running row, label cut to what fits before the next
        row = 0;
        for (var q = 1; q < rowEnds.length; q++) { if (rowEnds[q] < rowEnds[row]) { row = q; } }
        x = Math.max(x, rowEnds[row]);
      }
      m.row = row;
      m.x = x;
      rowEnds[row] = x + w;
    });
    var T = 10 + 14 * Math.max(1, rowEnds.length);
    var plotH = H - T - B;
    // y range over what is in view
    var ymin = Infinity, ymax = 0, minPos = Infinity, n = 0;
    o.series.forEach(function (s) {
      s.pts.forEach(function (p) {
        if (p[1] == null || p[0] < x0 - 1e-9 || p[0] > x1 + 1e-9) { return; }
        ymax = Math.max(ymax, p[1]);
        ymin = Math.min(ymin, p[1]);
        if (p[1] > 0) { minPos = Math.min(minPos, p[1]); }
      });
    });
    var log = this.log && minPos < Infinity;
    var y0, y1;
    if (log) {
      y0 = Math.pow(10, Math.floor(Math.log10(minPos)));
      y1 = Math.pow(10, Math.ceil(Math.log10(Math.max(ymax, y0 * 10))));
    } else {
      y0 = 0;
      y1 = niceCeil(ymax > 0 ? ymax * 1.05 : 1);
    }
    var py = function (y) {
      var f = log ? (Math.log10(Math.max(y, y0)) - Math.log10(y0)) / (Math.log10(y1) - Math.log10(y0)) : (y - y0) / (y1 - y0);
      return T + (1 - Math.min(1, f)) * plotH;
    };
    var svg = el('svg', {width: W, height: H, viewBox: '0 0 ' + W + ' ' + H, 'class': 'plotSvg'});
    this.box.insertBefore(svg, this.tip);
    var clipId = o.id + '-clip';
    var defs = el('defs', {}, svg);
    el('rect', {x: L, y: T, width: W - L - R, height: plotH}, el('clipPath', {id: clipId}, defs));
    el('rect', {'class': 'plot', x: L, y: T, width: W - L - R, height: plotH}, svg);
    var clipped = el('g', {'clip-path': 'url(#' + clipId + ')'}, svg);
    (o.bands || []).forEach(function (b) {
      var a = px(Math.max(b.from, x0)), z = px(Math.min(b.to, x1));
      if (z > a) { el('rect', {'class': 'band', x: a, y: T, width: z - a, height: plotH}, clipped); }
    });
    // grid and ticks
    var yt = [];
    if (log) {
      for (var d = y0; d <= y1 * 1.0001; d *= 10) { yt.push(d); }
    } else {
      for (var i = 0; i <= 5; i++) { yt.push(y0 + i * (y1 - y0) / 5); }
    }
    yt.forEach(function (v) {
      var y = py(v);
      el('line', {'class': 'grid', x1: L, x2: W - R, y1: y, y2: y}, svg);
      el('text', {'class': 'tick', x: L - 6, y: y + 4, 'text-anchor': 'end'}, svg).textContent = tickText(v, o.unit);
    });
    var xt = o.xTicks;
    if (!xt) {
      var step = niceCeil((x1 - x0) / Math.max(2, Math.floor((W - L - R) / 90)));
      xt = [];
      for (var v = Math.ceil(x0 / step - 1e-9) * step; v <= x1 + 1e-9; v += step) { xt.push({at: v, label: tickText(v) + 's'}); }
    }
    xt.forEach(function (t) {
      var x = px(t.at);
      el('line', {'class': 'grid', x1: x, x2: x, y1: T, y2: T + plotH}, svg);
      el('text', {'class': 'tick', x: x, y: T + plotH + 15, 'text-anchor': 'middle'}, svg).textContent = t.label;
    });
    el('text', {'class': 'axis', x: L + (W - L - R) / 2, y: T + plotH + 32, 'text-anchor': 'middle'}, svg).textContent =
      o.kind === 'spectrum' ? 'percentile' : 'seconds since the start' + (zoom ? ' (zoomed: double-click to zoom out)' : '');
    el('text', {'class': 'axis', transform: 'translate(13,' + (T + plotH / 2) + ') rotate(-90)', 'text-anchor': 'middle'}, svg)
      .textContent = o.unit + (log ? ' (log)' : '');
    // markers: a dashed line in the plot, the label in its row above it
    labels.forEach(function (m) {
      var x = px(m.at);
      if (m.kind === 'marker') { el('line', {'class': 'marker', x1: x, x2: x, y1: T, y2: T + plotH}, svg); }
      var ly = 10 + 14 * m.row + 9;
      el('line', {'class': 'markerTick', x1: x, x2: x, y1: ly + 2, y2: T}, svg);
      var t = el('text', {'class': m.kind === 'band' ? 'bandLabel' : 'markerLabel', x: m.x + 3, y: ly}, svg);
      t.textContent = m.label;
      el('title', {}, t).textContent = m.label + ' at ' + m.at.toFixed(2) + 's';
    });
    // the series
    var drawn = 0;
    o.series.forEach(function (s) {
      var dpath = '', pen = false, k = 0;
      s.pts.forEach(function (p) {
        if (p[1] == null) { pen = false; return; }
        dpath += (pen ? 'L' : 'M') + px(p[0]).toFixed(1) + ',' + py(p[1]).toFixed(1) + ' ';
        pen = true;
        k++;
      });
      if (k === 1) { dpath += 'l0.1,0'; } // one point still shows
      if (!dpath) { return; }
      var path = el('path', {'class': 'series' + (s.cls ? ' ' + s.cls : ''), d: dpath.trim(), stroke: s.color}, clipped);
      if (s.dash) { path.setAttribute('stroke-dasharray', s.dash); }
      drawn += k;
    });
    (o.cuts || []).forEach(function (c) {
      if (c.at < x0 || c.at > x1) { return; }
      var x = px(c.at), y = T + plotH;
      var m = el('path', {'class': 'cut', d: 'M' + (x - 4) + ',' + y + ' L' + x + ',' + (y - 7) + ' L' + (x + 4) + ',' + y + ' Z'}, svg);
      el('title', {}, m).textContent = c.text;
    });
    // the legend, right-aligned, its last row at the bottom
    legendRows.forEach(function (row, r) {
      var lx = W - R, ly2 = H - 4 - 16 * (legendRows.length - 1 - r);
      for (var si = row.length - 1; si >= 0; si--) {
        var s = row[si];
        lx -= 6.2 * s.name.length + 30;
        var sw = el('line', {x1: lx, x2: lx + 16, y1: ly2 - 4, y2: ly2 - 4, stroke: s.color, 'stroke-width': 2.5}, svg);
        if (s.dash) { sw.setAttribute('stroke-dasharray', s.dash); }
        el('text', {'class': 'legend', x: lx + 20, y: ly2}, svg).textContent = s.name;
      }
    });
    this.box.setAttribute('data-drawn', drawn);
    this.box.setAttribute('data-ymax', ymax);
    // hover and zoom
    var cross = el('line', {'class': 'cross', x1: 0, x2: 0, y1: T, y2: T + plotH, visibility: 'hidden'}, svg);
    var sel = el('rect', {'class': 'selection', x: 0, y: T, width: 0, height: plotH, visibility: 'hidden'}, svg);
    var over = el('rect', {x: L, y: T, width: W - L - R, height: plotH, fill: 'transparent', 'class': 'overlay'}, svg);
    var dragFrom = null;
    var toX = function (e) {
      var r = svg.getBoundingClientRect();
      return Math.max(L, Math.min(W - R, e.clientX - r.left));
    };
    var atX = function (cx) { return x0 + (cx - L) / (W - L - R) * (x1 - x0); };
    over.addEventListener('mousemove', function (e) {
      var cx = toX(e);
      cross.setAttribute('x1', cx);
      cross.setAttribute('x2', cx);
      cross.setAttribute('visibility', 'visible');
      var text = self.hover(atX(cx));
      self.tip.textContent = text;
      self.tip.style.display = 'block';
      self.tip.style.left = Math.min(cx + 12, W - 230) + 'px';
      self.tip.style.top = (T + 26) + 'px';
      self.box.setAttribute('data-hover', text.split('\n').join(' | '));
      if (dragFrom != null) {
        sel.setAttribute('x', Math.min(dragFrom, cx));
        sel.setAttribute('width', Math.abs(cx - dragFrom));
        sel.setAttribute('visibility', 'visible');
      }
    });
    over.addEventListener('mouseleave', function () {
      cross.setAttribute('visibility', 'hidden');
      self.tip.style.display = 'none';
      dragFrom = null;
      sel.setAttribute('visibility', 'hidden');
    });
    if (o.kind === 'time') {
      over.addEventListener('mousedown', function (e) { dragFrom = toX(e); e.preventDefault(); });
      over.addEventListener('mouseup', function (e) {
        var cx = toX(e);
        if (dragFrom != null && Math.abs(cx - dragFrom) > 5) {
          zoom = [atX(Math.min(dragFrom, cx)), atX(Math.max(dragFrom, cx))];
          drawAll();
        }
        dragFrom = null;
      });
      over.addEventListener('dblclick', function () { zoom = null; drawAll(); });
    }
  };

  /** The tooltip's text at x: each series' nearest point. */
  Chart.prototype.hover = function (x) {
    var o = this.o, unit = o.unit, xr = this.xRange(), near = 0.01 * (xr[1] - xr[0]);
    var lines = [o.kind === 'spectrum' ? 'p' + percentileText(x) : 't = ' + x.toFixed(2) + ' s'];
    o.series.forEach(function (s) {
      var best = null, dist = Infinity;
      s.pts.forEach(function (p) {
        if (p[1] != null && Math.abs(p[0] - x) < dist) { dist = Math.abs(p[0] - x); best = p; }
      });
      if (best) { lines.push(s.name + ': ' + fmt(best[1], unit)); }
    });
    (o.cuts || []).forEach(function (c) {
      if (Math.abs(c.at - x) < near) { lines.push(c.text); }
    });
    return lines.join('\n');
  };

  function percentileText(x) {
    var p = 100 * (1 - Math.pow(10, -x));
    return p >= 99.99 ? p.toFixed(4) : p >= 99 ? p.toFixed(2) : p.toFixed(1);
  }

  function drawAll() {
    charts.forEach(function (c) { c.draw(); });
    var reset = document.getElementById('resetZoom');
    if (reset) { reset.disabled = !zoom; }
  }

  // --- the data into charts ---
  var multi = runs.length > 1;
  // two runs are A and B (B dashed); more are told apart by their labels and colours
  function runName(r, i) { return multi ? (r.label || String.fromCharCode(65 + i)) + ' ' : ''; }
  function runDash(i) { return i && runs.length === 2 ? '6 3' : null; }
  function mid(p) { return (p.s + p.e) / 2; }
  function measured(r) { return r.points.filter(function (p) { return !p.cut; }); }
  function markersOf(r) { return multi ? [] : r.markers; }
  function bandsOf(r) {
    if (multi) { return []; }
    var bands = [], open = null;
    r.points.forEach(function (p) {
      if (p.w) {
        if (open && Math.abs(open.to - p.s) < 1e-6) { open.to = p.e; } else { open = {from: p.s, to: p.e, label: 'warm-up: not in the totals'}; bands.push(open); }
      } else { open = null; }
    });
    return bands;
  }
  function cutsOf(r, i) {
    return r.points.filter(function (p) { return p.cut; }).map(function (p) {
      return {at: mid(p), text: runName(r, i) + 'cut interval ' + p.s.toFixed(3) + '-' + p.e.toFixed(3) + ' s (' +
        ((p.e - p.s) * 1000).toFixed(0) + ' ms, at a phase boundary or the end): ' + p.n + ' ops, not drawn'};
    });
  }
  function span() {
    var xs = [];
    runs.forEach(function (r) { r.points.forEach(function (p) { xs.push(p.s, p.e); }); });
    return xs;
  }
  function all(f) { var out = []; runs.forEach(function (r, i) { out = out.concat(f(r, i)); }); return out; }

  var root = document.getElementById('charts');
  var tags = runs[0].tags;

  // achieved against target
  var rateSeries = [];
  runs.forEach(function (r, i) {
    rateSeries.push({name: runName(r, i) + 'achieved', color: multi ? RUN_COLORS[i] : '#1f77b4', cls: 'achieved', dash: runDash(i),
      pts: measured(r).map(function (p) { return [mid(p), p.n / (p.e - p.s)]; })});
    var target = [];
    r.points.forEach(function (p) {
      if (p.t == null) { target.push([p.s, null]); return; }
      target.push([p.s, p.t], [p.e, p.t]);
    });
    if (runs.length > 2 && i > 0) { return; } // many runs of one target: its line once
    if (target.some(function (p) { return p[1] != null; })) {
      rateSeries.push({name: runName(r, i) + 'target', color: multi ? RUN_COLORS[i] : '#222', cls: 'target', dash: '2 3', pts: target});
    }
  });
  html('h2', null, root, 'Rate: achieved against target');
  new Chart(root, {id: 'chart-rate', title: 'ops per second, per interval', kind: 'time', unit: 'ops/s', series: rateSeries,
    markers: markersOf(runs[0]), bands: bandsOf(runs[0]), cuts: all(cutsOf), span: span()});

  // errors
  var errorSeries = [];
  runs.forEach(function (r, i) {
    errorSeries.push({name: runName(r, i) + 'errors (all)', color: multi ? RUN_COLORS[i] : '#d62728', cls: 'errors', dash: runDash(i),
      pts: measured(r).map(function (p) { return [mid(p), p.noted ? p.err / (p.e - p.s) : null]; })});
    if (!multi && r.errorTypes.length > 1) {
      r.errorTypes.forEach(function (type, k) {
        errorSeries.push({name: type, color: ERROR_COLORS[(k + 1) % ERROR_COLORS.length], dash: '4 2',
          pts: measured(r).map(function (p) { return [mid(p), (p.errors[type] || 0) / (p.e - p.s)]; })});
      });
    }
  });
  html('h2', null, root, 'Errors');
  new Chart(root, {id: 'chart-errors', title: runs.every(function (r) { return r.noted; })
      ? (runs.some(function (r) { return r.errorTotal > 0; }) ? 'errors per second, per interval' : 'errors per second, per interval: none')
      : 'errors per second (not recorded in this log: written before pacer logged errors)',
    kind: 'time', unit: 'errors/s', series: errorSeries, markers: markersOf(runs[0]), bands: bandsOf(runs[0]), cuts: all(cutsOf), span: span()});

  // latency over time, per tag
  html('h2', null, root, 'Latency over time');
  tags.forEach(function (tag) {
    var series = [];
    var which = multi ? ['p50', 'p99'] : ['p50', 'p90', 'p99', 'max'];
    runs.forEach(function (r, i) {
      which.forEach(function (q, k) {
        var idx = {p50: 0, p90: 1, p99: 2, max: 3}[q];
        series.push({name: runName(r, i) + q, color: multi ? RUN_COLORS[i] : LAT_COLORS[q], dash: multi && q === 'p50' ? '6 3' : null,
          pts: measured(r).filter(function (p) { return p.l[tag]; }).map(function (p) { return [mid(p), p.l[tag][idx] / 1e6]; })});
      });
    });
    new Chart(root, {id: 'chart-time-' + tag, title: tag + ': p50, ' + (multi ? '' : 'p90, ') + 'p99' + (multi ? '' : ', max') + ' per interval',
      kind: 'time', unit: 'ms', log: true, logToggle: true, series: series, markers: markersOf(runs[0]), bands: bandsOf(runs[0]),
      cuts: all(cutsOf), span: span()});
  });

  // per named op (a workload's ops): each op's achieved rate and response p99 over time
  var opNames = [];
  runs.forEach(function (r) {
    (r.ops || []).forEach(function (op) { if (opNames.indexOf(op) < 0) { opNames.push(op); } });
  });
  if (opNames.length) {
    var opRate = [], opP99 = [];
    runs.forEach(function (r, i) {
      (r.ops || []).forEach(function (op) {
        var k = opNames.indexOf(op);
        var color = RUN_COLORS[k % RUN_COLORS.length], dash = runDash(i); // the op's colour; B's dashed
        var pts = measured(r).filter(function (p) { return p.o && p.o[op]; });
        opRate.push({name: runName(r, i) + op, color: color, dash: dash,
          pts: pts.map(function (p) { return [mid(p), p.o[op][0] / (p.e - p.s)]; })});
        opP99.push({name: runName(r, i) + op, color: color, dash: dash,
          pts: pts.map(function (p) { return [mid(p), p.o[op].length > 2 ? p.o[op][2] / 1e6 : null]; })});
      });
    });
    html('h2', null, root, 'Per op');
    new Chart(root, {id: 'chart-op-rate', title: 'each op\'s ops per second, per interval', kind: 'time', unit: 'ops/s',
      series: opRate, markers: markersOf(runs[0]), bands: bandsOf(runs[0]), cuts: all(cutsOf), span: span()});
    new Chart(root, {id: 'chart-op-response', title: 'each op\'s response p99, per interval', kind: 'time', unit: 'ms',
      log: true, logToggle: true, series: opP99, markers: markersOf(runs[0]), bands: bandsOf(runs[0]),
      cuts: all(cutsOf), span: span()});
  }

  // percentile spectrum, per tag
  html('h2', null, root, 'Percentile spectrum');
  var xTicks = [{at: 0, label: '0%'}];
  for (var k = 1; k <= data.nines; k++) {
    xTicks.push({at: k, label: k === 1 ? '90%' : '99' + (k > 2 ? '.' + new Array(k - 1).join('9') : '') + '%'});
  }
  tags.forEach(function (tag) {
    var series = [];
    runs.forEach(function (r, i) {
      if (r.spectrum[tag]) {
        series.push({name: (multi ? runName(r, i) + r.name : tag), color: multi ? RUN_COLORS[i] : (TAG_COLORS[tag] || '#9467bd'),
          dash: runDash(i), pts: r.spectrum[tag].map(function (p) { return [p[0], p[1] / 1e6]; })});
      }
    });
    new Chart(root, {id: 'chart-spectrum-' + tag, title: tag + ': latency by percentile (whole run' + (multi ? 's' : '') + ', warm-up left out)',
      kind: 'spectrum', unit: 'ms', log: false, logToggle: true, series: series, xTicks: xTicks, xMax: data.nines});
  });

  var reset = document.getElementById('resetZoom');
  if (reset) { reset.addEventListener('click', function () { zoom = null; drawAll(); }); }
  var pending = null;
  window.addEventListener('resize', function () {
    clearTimeout(pending);
    pending = setTimeout(drawAll, 100);
  });
  drawAll();

  // self-check: hover over each chart's middle once, keep what the tooltip said (data-hover)
  charts.forEach(function (c) {
    var over = c.box.querySelector('.overlay');
    var r = over.getBoundingClientRect();
    over.dispatchEvent(new MouseEvent('mousemove', {clientX: r.left + r.width / 2, clientY: r.top + r.height / 2, bubbles: true}));
    over.dispatchEvent(new MouseEvent('mouseleave', {bubbles: false}));
  });
  document.body.setAttribute('data-charts', charts.length);
}());
