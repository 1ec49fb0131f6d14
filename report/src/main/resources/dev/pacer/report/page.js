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

  /* Draws the chart anew (at the box's width, over the range in view): the steps below, in paint order. */
  Chart.prototype.draw = function () {
    var o = this.o;
    var old = this.box.querySelector('svg');
    if (old) { old.remove(); }
    var g = this.layout();
    var svg = el('svg', {width: g.W, height: g.H, viewBox: '0 0 ' + g.W + ' ' + g.H, 'class': 'plotSvg'});
    this.box.insertBefore(svg, this.tip);
    var clipped = drawPlotArea(svg, g, o.id);
    drawBands(clipped, g, o.bands || []);
    drawYAxis(svg, g, o.unit);
    drawXAxis(svg, g, o.xTicks || timeTicks(g));
    drawAxisNames(svg, g, o);
    drawMarkers(svg, g);
    var drawn = drawSeries(clipped, g, o.series);
    drawCuts(svg, g, o.cuts || []);
    drawLegend(svg, g);
    this.box.setAttribute('data-drawn', drawn);
    this.box.setAttribute('data-ymax', g.ymax);
    this.listen(svg, g);
  };

  /*
   * Where everything goes at the box's width: the svg's size W x H; the plot's margins L, R, T (above it:
   * the marker labels' rows) and B (below it: the x axis and, when they need more than one row, the legend's
   * rows) and its size plotW x plotH; the legend's rows; the marker labels, placed; the x range in view x0 .. x1
   * and the y range y0 .. y1 (log or linear) fitted to it, with ymax, the largest value in view; and the scales:
   * px and py (a value to its pixel), atX (a pixel to its x).
   */
  Chart.prototype.layout = function () {
    var o = this.o;
    var W = Math.max(320, this.box.clientWidth || 900), H = 290;
    var xr = this.xRange(), x0 = xr[0], x1 = xr[1];
    var L = 66, R = 18, B = 36;
    var rows = legendRows(o.series, W - L - R);
    var extra = rows.length > 1 ? 16 * rows.length : 0; // several rows go below the axis's name
    H += extra;
    B += extra;
    var px = function (x) { return L + (x - x0) / (x1 - x0) * (W - L - R); };
    var labels = markerLabels(o, x0, x1);
    var T = 10 + 14 * Math.max(1, placeLabels(labels, px));
    var plotH = H - T - B;
    var y = yRange(o.series, x0, x1, this.log);
    var y0 = y.y0, y1 = y.y1, log = y.log;
    var py = function (v) {
      var f = log ? (Math.log10(Math.max(v, y0)) - Math.log10(y0)) / (Math.log10(y1) - Math.log10(y0))
        : (v - y0) / (y1 - y0);
      return T + (1 - Math.min(1, f)) * plotH;
    };
    var atX = function (cx) { return x0 + (cx - L) / (W - L - R) * (x1 - x0); };
    return {W: W, H: H, L: L, R: R, T: T, B: B, plotW: W - L - R, plotH: plotH, legendRows: rows, labels: labels,
      x0: x0, x1: x1, y0: y0, y1: y1, log: log, ymax: y.ymax, px: px, py: py, atX: atX};
  };

  /* The legend's entries in rows as wide as the plot (many runs overlaid need several). */
  function legendRows(series, width) {
    var rows = [[]], rowW = 0;
    series.forEach(function (s) {
      var w = 6.2 * s.name.length + 30;
      if (rowW + w > width && rows[rows.length - 1].length) { rows.push([]); rowW = 0; }
      rows[rows.length - 1].push(s);
      rowW += w;
    });
    return rows;
  }

  /* The markers' and the bands' labels in the range in view x0 .. x1, in time order. */
  function markerLabels(o, x0, x1) {
    return (o.markers || []).map(function (m) { return {at: m.at, label: m.label, kind: 'marker'}; })
      .concat((o.bands || []).map(function (b) { return {at: b.from, label: b.label, kind: 'band'}; }))
      .filter(function (m) { return m.at >= x0 - 1e-9 && m.at <= x1 + 1e-9; })
      .sort(function (a, b) { return a.at - b.at; });
  }

  /*
   * Places the labels in rows above the plot, never over it: each gets its row (m.row) and its left edge (m.x)
   * at px of its time. Returns the number of rows used (at most 4).
   */
  function placeLabels(labels, px) {
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
    return rowEnds.length;
  }

  /*
   * The y range y0 .. y1 over the series' points in the range in view x0 .. x1: log (when wanted and a value is
   * above 0) between powers of ten around them, at least a decade; else linear from 0 to a round value above the
   * largest. With ymax, the largest value in view (0 when none).
   */
  function yRange(series, x0, x1, logWanted) {
    var ymax = 0, minPos = Infinity;
    series.forEach(function (s) {
      s.pts.forEach(function (p) {
        if (p[1] == null || p[0] < x0 - 1e-9 || p[0] > x1 + 1e-9) { return; }
        ymax = Math.max(ymax, p[1]);
        if (p[1] > 0) { minPos = Math.min(minPos, p[1]); }
      });
    });
    var log = logWanted && minPos < Infinity;
    var y0, y1;
    if (log) {
      y0 = Math.pow(10, Math.floor(Math.log10(minPos)));
      y1 = Math.pow(10, Math.ceil(Math.log10(Math.max(ymax, y0 * 10))));
    } else {
      y0 = 0;
      y1 = niceCeil(ymax > 0 ? ymax * 1.05 : 1);
    }
    return {y0: y0, y1: y1, log: log, ymax: ymax};
  }

  /* The plot's clip path and background; returns the group the plot clips (the bands and the series go in it). */
  function drawPlotArea(svg, g, id) {
    var clipId = id + '-clip';
    var defs = el('defs', {}, svg);
    el('rect', {x: g.L, y: g.T, width: g.plotW, height: g.plotH}, el('clipPath', {id: clipId}, defs));
    el('rect', {'class': 'plot', x: g.L, y: g.T, width: g.plotW, height: g.plotH}, svg);
    return el('g', {'clip-path': 'url(#' + clipId + ')'}, svg);
  }

  /* The bands (warm-up) as shaded spans of the plot, cut to the range in view. */
  function drawBands(clipped, g, bands) {
    bands.forEach(function (b) {
      var a = g.px(Math.max(b.from, g.x0)), z = g.px(Math.min(b.to, g.x1));
      if (z > a) { el('rect', {'class': 'band', x: a, y: g.T, width: z - a, height: g.plotH}, clipped); }
    });
  }

  /* The y grid lines and tick labels: each power of ten on a log scale, else six evenly spaced. */
  function drawYAxis(svg, g, unit) {
    var yt = [];
    if (g.log) {
      for (var d = g.y0; d <= g.y1 * 1.0001; d *= 10) { yt.push(d); }
    } else {
      for (var i = 0; i <= 5; i++) { yt.push(g.y0 + i * (g.y1 - g.y0) / 5); }
    }
    yt.forEach(function (v) {
      var y = g.py(v);
      el('line', {'class': 'grid', x1: g.L, x2: g.W - g.R, y1: y, y2: y}, svg);
      el('text', {'class': 'tick', x: g.L - 6, y: y + 4, 'text-anchor': 'end'}, svg).textContent = tickText(v, unit);
    });
  }

  /* A time chart's x ticks over the range in view: a round step in seconds, at least about 90 px apart. */
  function timeTicks(g) {
    var step = niceCeil((g.x1 - g.x0) / Math.max(2, Math.floor(g.plotW / 90)));
    var xt = [];
    for (var v = Math.ceil(g.x0 / step - 1e-9) * step; v <= g.x1 + 1e-9; v += step) {
      xt.push({at: v, label: tickText(v) + 's'});
    }
    return xt;
  }

  /* The x grid lines and tick labels at the ticks [{at, label}]. */
  function drawXAxis(svg, g, ticks) {
    ticks.forEach(function (t) {
      var x = g.px(t.at);
      el('line', {'class': 'grid', x1: x, x2: x, y1: g.T, y2: g.T + g.plotH}, svg);
      el('text', {'class': 'tick', x: x, y: g.T + g.plotH + 15, 'text-anchor': 'middle'}, svg).textContent = t.label;
    });
  }

  /* The axes' names: x below the plot (saying when the charts are zoomed), y (the unit) along its left. */
  function drawAxisNames(svg, g, o) {
    var x = el('text', {'class': 'axis', x: g.L + g.plotW / 2, y: g.T + g.plotH + 32, 'text-anchor': 'middle'}, svg);
    x.textContent = o.kind === 'spectrum' ? 'percentile'
      : 'seconds since the start' + (zoom ? ' (zoomed: double-click to zoom out)' : '');
    var y = el('text', {'class': 'axis', transform: 'translate(13,' + (g.T + g.plotH / 2) + ') rotate(-90)',
      'text-anchor': 'middle'}, svg);
    y.textContent = o.unit + (g.log ? ' (log)' : '');
  }

  /* The placed labels: a marker's dashed line in the plot; each label in its row above, ticked down to the plot. */
  function drawMarkers(svg, g) {
    g.labels.forEach(function (m) {
      var x = g.px(m.at);
      if (m.kind === 'marker') { el('line', {'class': 'marker', x1: x, x2: x, y1: g.T, y2: g.T + g.plotH}, svg); }
      var ly = 10 + 14 * m.row + 9;
      el('line', {'class': 'markerTick', x1: x, x2: x, y1: ly + 2, y2: g.T}, svg);
      var t = el('text', {'class': m.kind === 'band' ? 'bandLabel' : 'markerLabel', x: m.x + 3, y: ly}, svg);
      t.textContent = m.label;
      el('title', {}, t).textContent = m.label + ' at ' + m.at.toFixed(2) + 's';
    });
  }

  /* Each series as a path (its gaps unjoined); returns how many points were drawn. */
  function drawSeries(clipped, g, series) {
    var drawn = 0;
    series.forEach(function (s) {
      var line = seriesPath(s.pts, g);
      if (!line.d) { return; }
      var path = el('path', {'class': 'series' + (s.cls ? ' ' + s.cls : ''), d: line.d.trim(), stroke: s.color},
        clipped);
      if (s.dash) { path.setAttribute('stroke-dasharray', s.dash); }
      drawn += line.points;
    });
    return drawn;
  }

  /* A path's d of the points [[x, y], ...], a null y lifting the pen; one point alone still shows. */
  function seriesPath(pts, g) {
    var d = '', pen = false, k = 0;
    pts.forEach(function (p) {
      if (p[1] == null) { pen = false; return; }
      d += (pen ? 'L' : 'M') + g.px(p[0]).toFixed(1) + ',' + g.py(p[1]).toFixed(1) + ' ';
      pen = true;
      k++;
    });
    if (k === 1) { d += 'l0.1,0'; }
    return {d: d, points: k};
  }

  /* The cut intervals in view: a small triangle on the x axis, its text as its title. */
  function drawCuts(svg, g, cuts) {
    cuts.forEach(function (c) {
      if (c.at < g.x0 || c.at > g.x1) { return; }
      var x = g.px(c.at), y = g.T + g.plotH;
      var d = 'M' + (x - 4) + ',' + y + ' L' + x + ',' + (y - 7) + ' L' + (x + 4) + ',' + y + ' Z';
      var m = el('path', {'class': 'cut', d: d}, svg);
      el('title', {}, m).textContent = c.text;
    });
  }

  /* The legend, right-aligned, its last row at the bottom: each series' line style and name. */
  function drawLegend(svg, g) {
    var rows = g.legendRows;
    rows.forEach(function (row, r) {
      var lx = g.W - g.R, ly2 = g.H - 4 - 16 * (rows.length - 1 - r);
      for (var si = row.length - 1; si >= 0; si--) {
        var s = row[si];
        lx -= 6.2 * s.name.length + 30;
        var sw = el('line', {x1: lx, x2: lx + 16, y1: ly2 - 4, y2: ly2 - 4, stroke: s.color, 'stroke-width': 2.5}, svg);
        if (s.dash) { sw.setAttribute('stroke-dasharray', s.dash); }
        el('text', {'class': 'legend', x: lx + 20, y: ly2}, svg).textContent = s.name;
      }
    });
  }

  /*
   * The plot's crosshair, zoom selection and the transparent overlay that takes the mouse: hover on every chart,
   * drag to zoom on a time chart. drag.from: where a drag began (px), or null.
   */
  Chart.prototype.listen = function (svg, g) {
    var cross = el('line', {'class': 'cross', x1: 0, x2: 0, y1: g.T, y2: g.T + g.plotH, visibility: 'hidden'}, svg);
    var sel = el('rect', {'class': 'selection', x: 0, y: g.T, width: 0, height: g.plotH, visibility: 'hidden'}, svg);
    var over = el('rect', {x: g.L, y: g.T, width: g.plotW, height: g.plotH, fill: 'transparent', 'class': 'overlay'},
      svg);
    var drag = {from: null};
    var toX = function (e) {
      var r = svg.getBoundingClientRect();
      return Math.max(g.L, Math.min(g.W - g.R, e.clientX - r.left));
    };
    this.listenHover(over, g, toX, cross, sel, drag);
    if (this.o.kind === 'time') { listenZoom(over, g, toX, drag); }
  };

  /* Hover: the crosshair and the tooltip (also kept in data-hover) follow the mouse; a drag shows its selection. */
  Chart.prototype.listenHover = function (over, g, toX, cross, sel, drag) {
    var self = this;
    over.addEventListener('mousemove', function (e) {
      var cx = toX(e);
      cross.setAttribute('x1', cx);
      cross.setAttribute('x2', cx);
      cross.setAttribute('visibility', 'visible');
      var text = self.hover(g.atX(cx));
      self.tip.textContent = text;
      self.tip.style.display = 'block';
      self.tip.style.left = Math.min(cx + 12, g.W - 230) + 'px';
      self.tip.style.top = (g.T + 26) + 'px';
      self.box.setAttribute('data-hover', text.split('\n').join(' | '));
      if (drag.from != null) {
        sel.setAttribute('x', Math.min(drag.from, cx));
        sel.setAttribute('width', Math.abs(cx - drag.from));
        sel.setAttribute('visibility', 'visible');
      }
    });
    over.addEventListener('mouseleave', function () {
      cross.setAttribute('visibility', 'hidden');
      self.tip.style.display = 'none';
      drag.from = null;
      sel.setAttribute('visibility', 'hidden');
    });
  };

  /* Zoom: a drag wider than 5 px zooms every time chart to its span; a double-click zooms out. */
  function listenZoom(over, g, toX, drag) {
    over.addEventListener('mousedown', function (e) { drag.from = toX(e); e.preventDefault(); });
    over.addEventListener('mouseup', function (e) {
      var cx = toX(e);
      if (drag.from != null && Math.abs(cx - drag.from) > 5) {
        zoom = [g.atX(Math.min(drag.from, cx)), g.atX(Math.max(drag.from, cx))];
        drawAll();
      }
      drag.from = null;
    });
    over.addEventListener('dblclick', function () { zoom = null; drawAll(); });
  }

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
