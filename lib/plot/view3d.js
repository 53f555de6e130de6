// collide's 3D view of a run (embedded into every page that shows one; plot/view3d.h).
// Collide3D.create(container, data, options) draws one run with three.js (the global THREE the
// page embeds); Collide3D.player(elements, views) drives any views that have `frames`, `times`
// and `show(frameNumber)` from one slider, play button and `#frame=N`. The data is what
// plot/scene3d.h writes: shapes in their bodies' frames, packed tracks, contacts and marks.
(function () {
  'use strict';
  var PALETTE = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd', '#8c564b', '#e377c2', '#17becf',
    '#bcbd22', '#7f7f7f']; // plot.cpp's palette: the 2D and 3D views colour a body alike
  var STATIC_COLOUR = '#b4b0a6', KIND_NAMES = ['static', 'kinematic', 'character', 'dynamic'];
  var CHANNELS = 13; // position 3, velocity 3, rotation (w, x, y, z) 4, angular velocity 3

  function bytesOf(base64) {
    var bin = atob(base64), n = bin.length, out = new Uint8Array(n);
    for (var i = 0; i < n; ++i) out[i] = bin.charCodeAt(i);
    return out;
  }
  function floatsOf(base64) { var b = bytesOf(base64); return new Float32Array(b.buffer, 0, b.length >> 2); }
  function intsOf(base64) { var b = bytesOf(base64); return new Int32Array(b.buffer, 0, b.length >> 2); }
  function uintsOf(base64) { var b = bytesOf(base64); return new Uint32Array(b.buffer, 0, b.length >> 2); }

  // The tracks as scene3d.cpp packs them: per body and channel, zig-zag varint residuals of the
  // prediction from the three frames before (odd tokens: runs of zero residuals). Integers stay below 2^53.
  function unpackTracks(bytes, frames, bodies, quanta) {
    var out = new Float32Array(frames * bodies * CHANNELS), at = 0, width = bodies * CHANNELS;
    function varint() {
      var v = 0, mul = 1, b;
      do { b = bytes[at++]; v += (b & 127) * mul; mul *= 128; } while (b & 128);
      return v;
    }
    for (var b = 0; b < bodies; ++b) {
      for (var c = 0; c < CHANNELS; ++c) {
        var e = c < 3 ? quanta[0] : c < 6 ? quanta[1] : c < 10 ? quanta[2] : quanta[3];
        var scale = Math.pow(2, e), prev3 = 0, prev2 = 0, prev1 = 0, zeros = 0;
        for (var k = 0; k < frames; ++k) {
          var r = 0;
          if (zeros > 0) --zeros;
          else {
            var t = varint();
            if (t % 2 === 1) zeros = (t - 1) / 2;
            else { var z = t / 2; r = z % 2 === 0 ? z / 2 : -(z + 1) / 2; }
          }
          var x = (k === 0 ? 0 : k === 1 ? prev1 : k === 2 ? 2 * prev1 - prev2 : 3 * prev1 - 3 * prev2 + prev3) + r;
          prev3 = prev2; prev2 = prev1; prev1 = x;
          out[k * width + b * CHANNELS + c] = x * scale;
        }
      }
    }
    return out;
  }

  // Each body's colour: the moving bodies take the palette in turn (as plot.cpp's 2D views do);
  // a ghost (another run of the same bodies) takes the colour of the moving body it stands for.
  function colourOfBodies(kinds, ghosts) {
    var colours = [], solid = [], ghost = 0;
    for (var i = 0; i < kinds.length; ++i) {
      if (kinds[i] === 0) colours.push(STATIC_COLOUR);
      else if (!ghosts[i]) { colours.push(PALETTE[solid.length % PALETTE.length]); solid.push(i); }
      else colours.push(solid.length ? colours[solid[ghost++ % solid.length]] : PALETTE[ghost++ % PALETTE.length]);
    }
    return colours;
  }

  // A round step for a grid or a scale near `size`: 1, 2 or 5 × 10^k.
  function niceStep(size) {
    var p = Math.pow(10, Math.floor(Math.log10(size))), f = size / p;
    return (f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10) * p;
  }
  function metres(x) { return Number(x.toPrecision(3)) + ' m'; }

  function matrixOf(m, c) { // m: 9 numbers, the columns of a 3×3 matrix; c: a translation
    var out = new THREE.Matrix4();
    out.set(m[0], m[3], m[6], c[0], m[1], m[4], m[7], c[1], m[2], m[5], m[8], c[2], 0, 0, 0, 1);
    return out;
  }

  function fmt3(a) { return '(' + a.map(function (x) { return x.toFixed(3); }).join(', ') + ')'; }

  // One 3D view of a run inside `container`.
  function create(container, data, options) {
    options = options || {};
    var t0 = performance.now();
    var S = data.scene, R = data.run;
    var n = S.bodies.n, names = S.bodies.names.split('\n');
    var kinds = bytesOf(S.bodies.kind), triggers = bytesOf(S.bodies.trigger), geomOf = uintsOf(S.bodies.geom);
    var ghosts = S.bodies.ghost ? bytesOf(S.bodies.ghost) : new Uint8Array(n);
    var colours = colourOfBodies(kinds, ghosts);
    var moving = [], slot = new Int32Array(n).fill(-1);
    for (var i = 0; i < n; ++i) if (kinds[i] !== 0) { slot[i] = moving.length; moving.push(i); }
    var M = moving.length, frames = R.frames, F = frames.length;
    var tracks = unpackTracks(bytesOf(R.tracks), F, M, R.quanta);
    var tDecoded = performance.now();

    var lo = new THREE.Vector3().fromArray(R.bounds.min), hi = new THREE.Vector3().fromArray(R.bounds.max);
    var centre = lo.clone().add(hi).multiplyScalar(0.5);
    var radius = Math.max(hi.clone().sub(lo).length() / 2, 0.25);
    var up = new THREE.Vector3().fromArray(S.up).normalize();

    // Smooth edges (multisampling) but for big scenes, where it would cost most of the frame.
    var renderer = new THREE.WebGLRenderer({antialias: n <= 2000, preserveDrawingBuffer: true});
    renderer.setPixelRatio(window.devicePixelRatio || 1);
    var canvas = renderer.domElement;
    canvas.className = 'view3d-canvas';
    container.appendChild(canvas);
    var overlay = document.createElement('div');
    overlay.className = 'view3d-labels';
    container.appendChild(overlay);
    // The canvas fills its container, which the page sizes (the window's width, most of its height).
    var width = container.clientWidth || 640, height = container.clientHeight || 480;
    renderer.setSize(width, height);
    renderer.setClearColor(new THREE.Color('#f7f7f5'), 1);

    var scene = new THREE.Scene();
    scene.add(new THREE.AmbientLight(0xffffff, 1.2));
    var sun = new THREE.DirectionalLight(0xffffff, 1.6);
    var sunDir = up.clone().multiplyScalar(1.0).add(new THREE.Vector3(0.35, 0.2, 0.6)).normalize();
    sun.position.copy(sunDir);
    scene.add(sun);

    // Materials: static bodies flat-shaded, moving ones smooth, triggers translucent.
    var materials = {
      static: new THREE.MeshLambertMaterial({color: 0xffffff, flatShading: true, side: THREE.DoubleSide}),
      moving: new THREE.MeshLambertMaterial({color: 0xffffff, side: THREE.DoubleSide}),
      trigger: new THREE.MeshLambertMaterial({color: 0xffffff, transparent: true, opacity: 0.28, depthWrite: false,
        side: THREE.DoubleSide}),
      ghost: new THREE.MeshLambertMaterial({color: 0xffffff, transparent: true, opacity: 0.3, depthWrite: false,
        side: THREE.DoubleSide})
    };

    // Geometry per shape and the shape's placement in its body's frame.
    var users = S.geoms.map(function () { return 0; });
    for (i = 0; i < n; ++i) users[geomOf[i]]++;
    var geoms = S.geoms.map(function (g, gi) {
      var many = users[gi];
      if (g.t === 'sphere') { // detail for at most about 300,000 sphere triangles in all
        var each = 300000 / many;
        var geometry = each >= 1152 ? new THREE.SphereGeometry(1, 32, 18) : each >= 320 ? new THREE.SphereGeometry(1, 16, 10) :
          new THREE.IcosahedronGeometry(1, each >= 80 ? 1 : 0);
        return {geometry: geometry,
          local: new THREE.Matrix4().makeTranslation(g.c[0], g.c[1], g.c[2]).scale(new THREE.Vector3(g.r, g.r, g.r))};
      }
      if (g.t === 'box') {
        return {geometry: new THREE.BoxGeometry(1, 1, 1),
          local: matrixOf(g.m, g.c).scale(new THREE.Vector3(2 * g.h[0], 2 * g.h[1], 2 * g.h[2]))};
      }
      if (g.t === 'capsule') {
        var a = new THREE.Vector3().fromArray(g.a), b = new THREE.Vector3().fromArray(g.b);
        var axis = b.clone().sub(a), len = axis.length();
        var turn = new THREE.Quaternion();
        if (len > 0) turn.setFromUnitVectors(new THREE.Vector3(0, 1, 0), axis.clone().divideScalar(len));
        return {geometry: new THREE.CapsuleGeometry(g.r, len, 6, 16),
          local: new THREE.Matrix4().compose(a.clone().add(b).multiplyScalar(0.5), turn, new THREE.Vector3(1, 1, 1))};
      }
      if (g.t === 'tris') {
        var geometry = new THREE.BufferGeometry();
        geometry.setAttribute('position', new THREE.BufferAttribute(floatsOf(g.v), 3));
        geometry.computeVertexNormals();
        return {geometry: geometry, local: matrixOf(g.m, g.c)};
      }
      return {plane: g}; // a plane: a large grid, below
    });

    // Instanced meshes: one per geometry and material kind, bodies as instances.
    var groups = {}, instance = new Array(n);
    for (i = 0; i < n; ++i) {
      var gi = geomOf[i];
      if (geoms[gi].plane) continue;
      var kind = ghosts[i] ? 'ghost' : triggers[i] ? 'trigger' : kinds[i] === 0 ? 'static' : 'moving';
      var key = gi + ':' + kind;
      (groups[key] = groups[key] || {geom: gi, kind: kind, bodies: []}).bodies.push(i);
    }
    var pickable = [];
    Object.keys(groups).sort().forEach(function (key) {
      var g = groups[key];
      var mesh = new THREE.InstancedMesh(geoms[g.geom].geometry, materials[g.kind], g.bodies.length);
      mesh.frustumCulled = false;
      mesh.userData.bodies = g.bodies;
      mesh.userData.local = geoms[g.geom].local;
      var colour = new THREE.Color();
      g.bodies.forEach(function (body, k) {
        mesh.setColorAt(k, colour.set(colours[body]));
        instance[body] = {mesh: mesh, index: k};
      });
      if (g.kind === 'trigger' || g.kind === 'ghost') mesh.renderOrder = 2;
      scene.add(mesh);
      pickable.push(mesh);
    });

    // The ground grid's squares: a round size, about a twelfth of the scene.
    var gridCell = niceStep(Math.max(2 * radius / 12, 1e-6)), planeGround = false;

    // Static bodies: placed once.
    var staticAt = {}, bodyMatrix = new THREE.Matrix4(), placed = new THREE.Matrix4();
    var ONE = new THREE.Vector3(1, 1, 1), pos = new THREE.Vector3(), rot = new THREE.Quaternion();
    S.statics.forEach(function (s) {
      staticAt[s.i] = s;
      rot.set(s.q[1], s.q[2], s.q[3], s.q[0]).normalize();
      pos.fromArray(s.p);
      bodyMatrix.compose(pos, rot, ONE);
      var g = geoms[geomOf[s.i]];
      if (g.plane) {
        var normal = new THREE.Vector3().fromArray(g.plane.n).normalize();
        var cells = 2 * Math.ceil(Math.max(10, 8 * radius) / gridCell / 2), size = cells * gridCell;
        var grid = new THREE.GridHelper(size, cells, 0x888888, 0xc8c8c8);
        if (Math.abs(normal.dot(up)) > 0.99) planeGround = true;
        var q = new THREE.Quaternion().setFromUnitVectors(new THREE.Vector3(0, 1, 0), normal);
        // The grid centred where the scene's centre projects onto the plane.
        var inLocal = centre.clone().applyMatrix4(bodyMatrix.clone().invert());
        var foot = inLocal.clone().sub(normal.clone().multiplyScalar(inLocal.dot(normal) - g.plane.d));
        grid.applyMatrix4(bodyMatrix.clone().multiply(new THREE.Matrix4().compose(foot, q, ONE)));
        grid.userData.body = s.i;
        scene.add(grid);
        return;
      }
      var it = instance[s.i];
      it.mesh.setMatrixAt(it.index, placed.multiplyMatrices(bodyMatrix, it.mesh.userData.local));
    });

    function track(f, m, c) { return tracks[(f * M + m) * CHANNELS + c]; }

    // Paths: every moving body's positions at the kept frames (at most 120,000 points in all).
    var pathStep = Math.max(1, Math.ceil(F * M / 120000));
    var paths = [{points: [], colours: []}, {points: [], colours: []}], colour = new THREE.Color(); // solid, ghosts
    moving.forEach(function (body, m) {
      colour.set(colours[body]);
      var last = null, into = paths[ghosts[body] ? 1 : 0];
      for (var f = 0; f < F; f += pathStep) {
        var p = [track(f, m, 0), track(f, m, 1), track(f, m, 2)];
        if (last && (p[0] !== last[0] || p[1] !== last[1] || p[2] !== last[2])) {
          into.points.push(last[0], last[1], last[2], p[0], p[1], p[2]);
          into.colours.push(colour.r, colour.g, colour.b, colour.r, colour.g, colour.b);
        }
        last = p;
      }
    });
    paths.forEach(function (path, ghost) {
      if (!path.points.length) return;
      var pathGeometry = new THREE.BufferGeometry();
      pathGeometry.setAttribute('position', new THREE.Float32BufferAttribute(path.points, 3));
      pathGeometry.setAttribute('color', new THREE.Float32BufferAttribute(path.colours, 3));
      scene.add(new THREE.LineSegments(pathGeometry, ghost ?
        new THREE.LineBasicMaterial({vertexColors: true, transparent: true, opacity: 0.35, depthWrite: false}) :
        new THREE.LineBasicMaterial({vertexColors: true})));
    });

    // Contacts: a point and its normal (from the first body to the second); those found up to
    // the frame shown.
    var contactFrames = intsOf(R.contacts.f), contactCount = R.contacts.n;
    var contactPoints = null, contactNormals = null;
    if (contactCount) {
      var cp = floatsOf(R.contacts.p), cn = floatsOf(R.contacts.d), ends = new Float32Array(contactCount * 6);
      var normalLength = 0.08 * radius;
      for (i = 0; i < contactCount; ++i)
        for (var a3 = 0; a3 < 3; ++a3) {
          ends[6 * i + a3] = cp[3 * i + a3];
          ends[6 * i + 3 + a3] = cp[3 * i + a3] + normalLength * cn[3 * i + a3];
        }
      var pg = new THREE.BufferGeometry();
      pg.setAttribute('position', new THREE.BufferAttribute(cp, 3));
      contactPoints = new THREE.Points(pg, new THREE.PointsMaterial({color: 0x111111, size: 4, sizeAttenuation: false}));
      var ng = new THREE.BufferGeometry();
      ng.setAttribute('position', new THREE.BufferAttribute(ends, 3));
      contactNormals = new THREE.LineSegments(ng, new THREE.LineBasicMaterial({color: 0x111111}));
      scene.add(contactPoints, contactNormals);
    }

    // First contacts (red) and apexes (green) from their frame on, the first few labelled.
    var labels = [], markSets = [];
    ['first', 'apex'].forEach(function (k) {
      var ps = [], fs = [];
      R.marks.filter(function (mk) { return mk.k === k; }).sort(function (a, b) { return a.f - b.f; }).forEach(function (mk) {
        ps.push(mk.p[0], mk.p[1], mk.p[2]);
        fs.push(mk.f);
        if (mk.t) {
          var el = document.createElement('div');
          el.className = 'view3d-label ' + k;
          el.textContent = mk.t;
          overlay.appendChild(el);
          labels.push({el: el, p: new THREE.Vector3().fromArray(mk.p), f: mk.f});
        }
      });
      if (!ps.length) return;
      var g = new THREE.BufferGeometry();
      g.setAttribute('position', new THREE.Float32BufferAttribute(ps, 3));
      var points = new THREE.Points(g, new THREE.PointsMaterial({color: k === 'first' ? 0xdd0000 : 0x008800, size: 9,
        sizeAttenuation: false, depthTest: false}));
      points.renderOrder = 3;
      scene.add(points);
      markSets.push({points: points, frames: fs});
    });

    // The ground grid: square cells of a round size (gridCell) on the plane across up at the
    // ground collide found (the moving bodies' lowest reach, or the floor they rest on), a
    // little above it (so the floor's top face does not hide it), covering the scene; the axes
    // (x red, y green, z blue) beside it.
    var groundLevel = typeof R.ground === 'number' ? R.ground : lo.dot(up);
    var turnUp = new THREE.Quaternion().setFromUnitVectors(new THREE.Vector3(0, 1, 0), up);
    var e1 = new THREE.Vector3(1, 0, 0).applyQuaternion(turnUp), e2 = new THREE.Vector3(0, 0, 1).applyQuaternion(turnUp);
    var corners = [], u0 = Infinity, u1 = -Infinity, v0 = Infinity, v1 = -Infinity;
    for (var c8 = 0; c8 < 8; ++c8) {
      var q8 = new THREE.Vector3(c8 & 1 ? hi.x : lo.x, c8 & 2 ? hi.y : lo.y, c8 & 4 ? hi.z : lo.z);
      corners.push(q8);
      u0 = Math.min(u0, q8.dot(e1)); u1 = Math.max(u1, q8.dot(e1)); v0 = Math.min(v0, q8.dot(e2)); v1 = Math.max(v1, q8.dot(e2));
    }
    var gridCells = 2 * Math.ceil((Math.max(u1 - u0, v1 - v0) / gridCell + 2) / 2), gridSize = gridCells * gridCell;
    var gu = Math.round((u0 + u1) / 2 / gridCell) * gridCell, gv = Math.round((v0 + v1) / 2 / gridCell) * gridCell;
    var lift = up.clone().multiplyScalar(groundLevel + 1e-3 * radius);
    if (!planeGround) {
      var ground = new THREE.GridHelper(gridSize, gridCells, 0x8a8a8a, 0xcfcfcf);
      ground.quaternion.copy(turnUp);
      ground.position.copy(e1.clone().multiplyScalar(gu).add(e2.clone().multiplyScalar(gv)).add(lift));
      ground.userData.grid = gridCell;
      scene.add(ground);
    }
    // The axes stand on the ground at the corner of the scene's footprint nearest the eye and
    // leftmost (in view, and off the bodies).
    var viewEye = new THREE.Vector3().fromArray(R.view ? R.view.eye : [0.3, 0.35, 0.89]).normalize();
    var viewRight = new THREE.Vector3().crossVectors(viewEye.clone().negate(), up).normalize();
    var axesAt = null, best = -Infinity;
    [[u0, v0], [u0, v1], [u1, v0], [u1, v1]].forEach(function (uv) {
      var p = e1.clone().multiplyScalar(uv[0]).add(e2.clone().multiplyScalar(uv[1])).add(lift);
      var score = p.dot(viewEye) - p.dot(viewRight);
      if (score > best) { best = score; axesAt = p; }
    });
    var axesLength = 2 * gridCell, axes = new THREE.AxesHelper(axesLength);
    axes.position.copy(axesAt);
    scene.add(axes);
    var fixedLabels = ['x', 'y', 'z'].map(function (name, a) {
      var el = document.createElement('div');
      el.className = 'view3d-label axis ' + name;
      el.textContent = name;
      overlay.appendChild(el);
      return {el: el, p: axesAt.clone().add(new THREE.Vector3().setComponent(a, 1.15 * axesLength))};
    });
    var scaleLabel = document.createElement('div');
    scaleLabel.className = 'view3d-scale';
    scaleLabel.textContent = 'grid ' + metres(gridCell) + ' · axes ' + metres(axesLength);
    container.appendChild(scaleLabel);
    container.setAttribute('data-grid', String(gridCell));

    // The camera: from the direction collide chose (plot/camera3d.h: across the plane the
    // motion spans, up as up), as far as it must be to see all of the scene's bounds (the
    // moving bodies over the run, each static body's centre) in the canvas as it is now.
    var camera = new THREE.PerspectiveCamera(40, width / height, radius / 200, radius * 400);
    camera.up.copy(up);
    var target = new THREE.Vector3(), moved = false; // moved: the user turned, panned or zoomed
    function frame() {
      moved = false;
      target.copy(centre);
      var forward = viewEye.clone().negate();
      var right = new THREE.Vector3().crossVectors(forward, up).normalize();
      var above = new THREE.Vector3().crossVectors(right, forward).normalize();
      var tanV = 0.92 * Math.tan(camera.fov * Math.PI / 360), tanH = tanV * camera.aspect;
      var distance = radius / tanV / 4;
      corners.forEach(function (q) { // each corner inside the view, 8 % in from its edges
        var d = q.clone().sub(target), z = d.dot(viewEye);
        distance = Math.max(distance, z + Math.abs(d.dot(right)) / tanH, z + Math.abs(d.dot(above)) / tanV);
      });
      camera.position.copy(target).addScaledVector(viewEye, distance);
      camera.near = distance / 500;
      camera.far = distance * 200 + 8 * radius;
      camera.updateProjectionMatrix();
      camera.lookAt(target);
    }
    frame();

    function describeCamera() {
      container.setAttribute('data-camera', JSON.stringify({eye: camera.position.toArray(), target: target.toArray(),
        up: camera.up.toArray(), fov: camera.fov, aspect: camera.aspect, width: width, height: height}));
    }

    var current = 0, pending = false, disposed = false;
    function placeLabels() { // the axes' names, then the labels of marks shown so far that overlap none placed before
      var v = new THREE.Vector3(), taken = [];
      fixedLabels.forEach(function (l) {
        v.copy(l.p).project(camera);
        var visible = v.z < 1 && Math.abs(v.x) <= 1 && Math.abs(v.y) <= 1;
        l.el.style.display = visible ? '' : 'none';
        l.el.style.left = ((v.x + 1) / 2 * width - 3).toFixed(0) + 'px';
        l.el.style.top = ((1 - v.y) / 2 * height - 7).toFixed(0) + 'px';
      });
      labels.forEach(function (l) {
        v.copy(l.p).project(camera);
        var x = (v.x + 1) / 2 * width + 6, y = (1 - v.y) / 2 * height - 14, w = 6 * l.el.textContent.length, h = 14;
        var visible = l.f <= frames[current] && v.z < 1 && Math.abs(v.x) <= 1 && Math.abs(v.y) <= 1 &&
          !taken.some(function (b) { return x < b[2] && b[0] < x + w && y < b[3] && b[1] < y + h; });
        l.el.style.display = visible ? '' : 'none';
        if (!visible) return;
        taken.push([x, y, x + w, y + h]);
        l.el.style.left = x.toFixed(0) + 'px';
        l.el.style.top = y.toFixed(0) + 'px';
      });
    }
    function render() {
      pending = false;
      if (disposed) return;
      camera.lookAt(target);
      renderer.render(scene, camera);
      placeLabels();
      describeCamera();
    }
    function request() {
      if (!pending) { pending = true; requestAnimationFrame(render); }
    }

    // Moves every moving body to kept frame f: position and rotation from its track.
    function place(f) {
      current = f;
      for (var m = 0; m < M; ++m) {
        var it = instance[moving[m]];
        if (!it) continue;
        pos.set(track(f, m, 0), track(f, m, 1), track(f, m, 2));
        rot.set(track(f, m, 7), track(f, m, 8), track(f, m, 9), track(f, m, 6)).normalize();
        bodyMatrix.compose(pos, rot, ONE);
        it.mesh.setMatrixAt(it.index, placed.multiplyMatrices(bodyMatrix, it.mesh.userData.local));
      }
      pickable.forEach(function (mesh) { mesh.instanceMatrix.needsUpdate = true; mesh.boundingSphere = null; });
      var shown = 0;
      while (shown < contactCount && contactFrames[shown] <= frames[f]) ++shown;
      if (contactPoints) { contactPoints.geometry.setDrawRange(0, shown); contactNormals.geometry.setDrawRange(0, 2 * shown); }
      markSets.forEach(function (set) {
        var count = 0;
        while (count < set.frames.length && set.frames[count] <= frames[f]) ++count;
        set.points.geometry.setDrawRange(0, count);
      });
      container.setAttribute('data-frame', String(frames[f]));
    }
    function indexOf(frameNumber) { // the last kept frame at or before frameNumber
      var k = 0;
      while (k + 1 < F && frames[k + 1] <= frameNumber) ++k;
      return k;
    }

    // Orbit (drag), pan (right or shift-drag), zoom (wheel), frame again (double-click).
    var drag = null;
    canvas.addEventListener('contextmenu', function (e) { e.preventDefault(); });
    canvas.addEventListener('pointerdown', function (e) {
      drag = {x: e.clientX, y: e.clientY, pan: e.button === 2 || e.shiftKey};
      canvas.setPointerCapture(e.pointerId);
    });
    canvas.addEventListener('pointerup', function (e) { drag = null; canvas.releasePointerCapture(e.pointerId); });
    var hoverEvent = null;
    canvas.addEventListener('pointermove', function (e) {
      if (!drag) { // one ray per displayed frame, however fast the pointer moves
        if (!hoverEvent) requestAnimationFrame(function () { var h = hoverEvent; hoverEvent = null; hover(h); });
        hoverEvent = e;
        return;
      }
      var dx = e.clientX - drag.x, dy = e.clientY - drag.y;
      drag.x = e.clientX; drag.y = e.clientY;
      moved = true;
      var offset = camera.position.clone().sub(target);
      var right = new THREE.Vector3().crossVectors(offset, up).normalize();
      if (drag.pan) {
        var scale = 2 * offset.length() * Math.tan(camera.fov * Math.PI / 360) / height;
        var camUp = new THREE.Vector3().crossVectors(right, offset).normalize();
        var move = right.multiplyScalar(dx * scale).add(camUp.multiplyScalar(dy * scale));
        target.add(move);
        camera.position.add(move);
      } else {
        offset.applyAxisAngle(up, -dx * 0.006);
        var tilted = offset.clone().applyAxisAngle(right, dy * 0.006);
        if (tilted.clone().normalize().dot(up) < 0.995 && tilted.clone().normalize().dot(up) > -0.995) offset = tilted;
        camera.position.copy(target).add(offset);
      }
      request();
    });
    canvas.addEventListener('wheel', function (e) {
      e.preventDefault();
      moved = true;
      var offset = camera.position.clone().sub(target).multiplyScalar(Math.exp(e.deltaY * 0.001));
      camera.position.copy(target).add(offset);
      request();
    }, {passive: false});
    canvas.addEventListener('dblclick', function () { frame(); request(); });

    // The read-out of the body under the pointer.
    var raycaster = new THREE.Raycaster(), ndc = new THREE.Vector2();
    function hover(e) {
      if (!options.readout) return;
      var rect = canvas.getBoundingClientRect();
      ndc.set((e.clientX - rect.left) / rect.width * 2 - 1, -((e.clientY - rect.top) / rect.height) * 2 + 1);
      raycaster.setFromCamera(ndc, camera);
      var hits = raycaster.intersectObjects(pickable, false);
      if (!hits.length) return;
      var body = hits[0].object.userData.bodies[hits[0].instanceId];
      options.readout.textContent = describe(body);
    }
    function describe(body) {
      var m = slot[body], text = names[body] + ' (' + (ghosts[body] ? 'ghost, ' : '') + (triggers[body] ? 'trigger, ' : '') +
        KIND_NAMES[kinds[body]] + ')';
      text += ' · frame ' + frames[current] + ' · t = ' + R.times[current].toFixed(3) + ' s';
      if (m < 0) return text + ' · position ' + fmt3(staticAt[body] ? staticAt[body].p : [0, 0, 0]) + ' m';
      var get = function (c) { return [track(current, m, c), track(current, m, c + 1), track(current, m, c + 2)]; };
      return text + ' · position ' + fmt3(get(0)) + ' m · velocity ' + fmt3(get(3)) + ' m/s · angular velocity ' +
        fmt3(get(10)) + ' rad/s';
    }

    // The legend.
    var legend = document.createElement('div');
    legend.className = 'view3d-legend';
    var items = [], shownBodies = 0;
    var anyGhost = false;
    for (i = 0; i < n; ++i) {
      if (kinds[i] === 0) continue;
      if (ghosts[i]) { anyGhost = true; continue; }
      if (++shownBodies <= 12) items.push('<span class="sw" style="background:' + colours[i] + '"></span>' + names[i]);
    }
    if (shownBodies > 12) items.push('… and ' + (shownBodies - 12) + ' more bodies');
    if (anyGhost) items.push('<span class="sw ghost"></span>' + (S.ghost_note || 'translucent: another run of the same bodies'));
    items.push('<span class="sw" style="background:' + STATIC_COLOUR + '"></span>static body (flat-shaded)');
    items.push('<span class="sw trig"></span>trigger (translucent)', '<span class="ln"></span>path',
      '<span class="dot"></span>contact and its normal', '<span class="dot red"></span>first contact of a pair',
      '<span class="dot green"></span>apex');
    var note = [];
    if (R.stride > 1) note.push('every ' + R.stride + 'th frame of ' + R.total + ' kept');
    if (S.triangles.shown < S.triangles.total) note.push(S.triangles.shown + ' of ' + S.triangles.total + ' mesh triangles drawn');
    note.push('positions to ' + Math.pow(2, R.quanta[0]).toPrecision(2) + ' m');
    note.push('grid: ' + metres(gridCell) + ' squares on the ground · axes x (red), y (green), z (blue), ' + metres(axesLength) + ' long');
    note.push('drag: orbit · right-drag or shift-drag: pan · wheel: zoom · double-click: frame');
    legend.innerHTML = items.map(function (s) { return '<span class="it">' + s + '</span>'; }).join('') +
      '<div class="note">' + note.join(' · ') + '</div>';
    container.parentNode.insertBefore(legend, container.nextSibling);

    // The canvas follows its container (the window resized, a panel opened): the same view,
    // framed again unless the user moved it.
    function resize() {
      var w = container.clientWidth, h = container.clientHeight;
      if (!w || !h || (w === width && h === height) || disposed) return;
      width = w; height = h;
      renderer.setSize(width, height);
      camera.aspect = width / height;
      if (moved) camera.updateProjectionMatrix(); else frame();
      request();
    }
    var observer = typeof ResizeObserver === 'function' ? new ResizeObserver(resize) : null;
    if (observer) observer.observe(container);
    window.addEventListener('resize', resize);

    place(0);
    render();
    var probe = new Uint8Array(4), gl = renderer.getContext();
    gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, probe); // waits for the first picture
    var built = performance.now() - t0;
    container.setAttribute('data-build-ms', built.toFixed(0));
    container.setAttribute('data-decode-ms', (tDecoded - t0).toFixed(0));
    container.setAttribute('data-bodies', String(n));

    var viewer = {
      frames: frames,
      times: R.times,
      buildMs: built,
      show: function (frameNumber) { if (!disposed) { place(indexOf(frameNumber)); request(); } },
      renderNow: function () { place(current); render(); },
      describe: describe,
      three: {scene: scene, renderer: renderer, camera: camera},
      resize: resize,
      dispose: function () {
        disposed = true;
        if (observer) observer.disconnect();
        window.removeEventListener('resize', resize);
        renderer.dispose();
        renderer.forceContextLoss();
        while (container.firstChild) container.removeChild(container.firstChild);
        if (legend.parentNode) legend.parentNode.removeChild(legend);
      }
    };
    container.collideViewer = viewer;
    return viewer;
  }

  // One slider, play button and frame read-out for several views (each with frames, times and
  // show(frameNumber)); the slider steps through the view with the most frames. A link to
  // page.html#frame=N opens at frame N (the last kept frame at or before it), and the address
  // follows the slider (#frame= of the frame shown), unless elements.hash is false.
  function player(elements, views) {
    var slider = elements.slider, play = elements.play, info = elements.info;
    var master = views.reduce(function (a, b) { return b.frames.length > a.frames.length ? b : a; }, views[0]);
    var current = 0, timer = null, count = master.frames.length;
    slider.min = 0;
    slider.max = Math.max(count - 1, 0);
    function show(k) {
      current = k;
      slider.value = k;
      var f = master.frames[k];
      views.forEach(function (v) { v.show(f); });
      if (count) info.textContent = 'frame ' + f + ' · t = ' + master.times[k].toFixed(3) + ' s';
      // The address says the frame shown (a link to it opens there); no history entry per frame.
      if (count && elements.hash !== false && location.hash !== '#frame=' + f) history.replaceState(null, '', '#frame=' + f);
    }
    // Handlers are assigned, not added: a player made again for the same controls replaces the last.
    if (play.collideTimer) clearInterval(play.collideTimer);
    play.collideTimer = null;
    play.textContent = '▶ play';
    slider.oninput = function () { show(+slider.value); };
    play.onclick = function () {
      if (play.collideTimer) { clearInterval(play.collideTimer); play.collideTimer = null; play.textContent = '▶ play'; return; }
      play.textContent = '❚❚ pause';
      play.collideTimer = setInterval(function () { show((current + 1) % Math.max(count, 1)); }, 1000 / 30);
    };
    function fromHash() {
      var wanted = /frame=(\d+)/.exec(location.hash), k = 0;
      if (wanted) while (k + 1 < count && master.frames[k + 1] <= +wanted[1]) ++k;
      return k;
    }
    if (elements.hash !== false) window.addEventListener('hashchange', function () { show(fromHash()); });
    show(elements.hash === false ? 0 : fromHash());
    return {show: show};
  }

  window.Collide3D = {create: create, player: player, unpackTracks: unpackTracks, PALETTE: PALETTE};
})();
