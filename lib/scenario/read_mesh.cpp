// A body's `mesh:` — an OBJ file (read with tinyobjloader) or inline vertices and triangles —
// built into the shared mesh data the body keeps (BodyDef::mesh_data).
//
// OBJ rules: `v x y z` lines give corners (three finite numbers; a fourth, w, is ignored),
// `f` lines give faces of 3 or more corners, fan-triangulated from the first (as tinyobjloader
// does); indices are 1-based, and negative ones are relative as the OBJ format says (−1 is the
// last vertex read so far); an index that resolves outside the vertices read is an error at
// the face's line. Normals, texture coordinates, groups and materials are ignored.
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include <tiny_obj_loader.h>

#include "scenario/reader_state.h"
#include "shapes/mesh.h"

namespace collide::reader {

namespace {

/// The largest OBJ file read (bytes): about kMeshMaxTriangles triangles of short lines.
constexpr std::uintmax_t kMaxObjBytes = 256u * 1024u * 1024u;

/// Where a problem in an OBJ file is reported.
struct ObjSite {
    std::string shown; ///< the OBJ path as printed
    Problems& problems;
    void error(int line, int column, std::string message) {
        problems.diagnostics.push_back({shown, line > 0 ? line : 1, column > 0 ? column : 1, std::move(message)});
    }
};

/// Corners and triangles of an OBJ text, the face line of each triangle; false after an error.
bool read_obj(const std::string& text, ObjSite& site, std::vector<Vec3>& vertices,
              std::vector<std::array<int, 3>>& triangles, std::vector<int>& face_lines) {
    // Our own pass over the lines: every `v` line must hold three finite numbers (tinyobjloader
    // reads "nan" as 0), and each `f` line's number is kept to place errors in faces.
    std::vector<int> f_lines;
    int line_no = 0;
    bool ok = true;
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) {
        ++line_no;
        std::size_t p = line.find_first_not_of(" \t");
        if (p == std::string::npos) continue;
        if (line.compare(p, 2, "f ") == 0 || line.compare(p, 2, "f\t") == 0) f_lines.push_back(line_no);
        if (!(line.compare(p, 2, "v ") == 0 || line.compare(p, 2, "v\t") == 0)) continue;
        p += 2;
        for (int k = 0; k < 3; ++k) {
            p = line.find_first_not_of(" \t\r", p);
            const int column = static_cast<int>(p == std::string::npos ? line.size() + 1 : p + 1);
            if (p == std::string::npos) {
                site.error(line_no, column, "a vertex needs x, y and z, this one has " + std::to_string(k));
                ok = false;
                break;
            }
            const std::size_t end = line.find_first_of(" \t\r", p);
            const std::string token = line.substr(p, end == std::string::npos ? std::string::npos : end - p);
            char* stop = nullptr;
            errno = 0;
            const double v = std::strtod(token.c_str(), &stop);
            if (stop == token.c_str() || *stop != '\0' || !std::isfinite(v) || errno == ERANGE) {
                site.error(line_no, column, "vertex coordinate '" + token + "' is not a finite number");
                ok = false;
                break;
            }
            p = end == std::string::npos ? line.size() : end;
        }
    }
    if (!ok) return false;
    if (line_no == 0 || text.find_first_not_of(" \t\r\n") == std::string::npos) {
        site.error(1, 1, "the mesh file is empty: no vertices, no faces");
        return false;
    }
    tinyobj::ObjReaderConfig config;
    config.triangulate = false; // fan-triangulated below, face by face, to keep each face's line
    config.vertex_color = false;
    tinyobj::ObjReader reader;
    if (!reader.ParseFromString(text, "", config)) {
        std::string err = reader.Error();
        int at = 1;
        std::smatch m;
        if (std::regex_search(err, m, std::regex("line ([0-9]+)"))) at = std::atoi(m[1].str().c_str());
        while (!err.empty() && (err.back() == '\n' || err.back() == '.')) err.pop_back();
        for (char& c : err)
            if (c == '\n') c = ' ';
        site.error(at, 1, "cannot read the OBJ file: " + err);
        return false;
    }
    const auto& coords = reader.GetAttrib().vertices;
    vertices.resize(coords.size() / 3);
    for (std::size_t i = 0; i < vertices.size(); ++i)
        vertices[i] = Vec3{coords[3 * i], coords[3 * i + 1], coords[3 * i + 2]};
    std::size_t face = 0;
    for (const tinyobj::shape_t& shape : reader.GetShapes()) {
        std::size_t at = 0;
        for (const unsigned char n : shape.mesh.num_face_vertices) {
            const int line = face < f_lines.size() ? f_lines[face] : 1;
            if (n < 3) {
                site.error(line, 1, "a face needs at least 3 corners, this one has " + std::to_string(n));
                return false;
            }
            for (unsigned k = 0; k < n; ++k) {
                const int index = shape.mesh.indices[at + k].vertex_index;
                if (index < 0 || static_cast<std::size_t>(index) >= vertices.size()) {
                    site.error(line, 1,
                               "corner " + std::to_string(k + 1) + " refers to vertex " + std::to_string(index + 1) +
                                       " (after resolving relative indices), but " + std::to_string(vertices.size()) +
                                       " vertices are defined");
                    return false;
                }
            }
            for (unsigned k = 1; k + 1 < n; ++k) {
                triangles.push_back({shape.mesh.indices[at].vertex_index, shape.mesh.indices[at + k].vertex_index,
                                     shape.mesh.indices[at + k + 1].vertex_index});
                face_lines.push_back(line);
                if (triangles.size() > kMeshMaxTriangles) {
                    site.error(line, 1,
                               "a mesh holds at most " + std::to_string(kMeshMaxTriangles) +
                                       " triangles; this file has more");
                    return false;
                }
            }
            at += n;
            ++face;
        }
    }
    return true;
}

/// The `vertices:` and `triangles:` of an inline mesh; false after an error.
bool read_inline(ReaderState& r, const MapView& view, const What& path, std::vector<Vec3>& vertices,
                 std::vector<std::array<int, 3>>& triangles, std::vector<SourceMark>& marks) {
    const Entry* v = require(r.problems, view, "vertices", path);
    const Entry* t = require(r.problems, view, "triangles", path);
    if (!v || !t) return false;
    bool ok = true;
    const SourceMark vm = mark_of(v->value, v->key_mark);
    if (!v->value.is_sequence() || v->value.size() == 0) {
        r.problems.error(vm, path + ".vertices: expected a list of points [[x, y, z], ...], got " + describe(v->value));
        return false;
    }
    if (v->value.size() > 3 * kMeshMaxTriangles) {
        r.problems.error(vm, path + ".vertices: too many vertices for a mesh");
        return false;
    }
    for (std::size_t i = 0; i < v->value.size(); ++i) {
        const std::string w = path + ".vertices[" + std::to_string(i) + "]";
        const Node p = v->value[i];
        const SourceMark pm = mark_of(p, vm);
        if (!p.is_sequence() || p.size() != 3) {
            r.problems.error(pm, w + ": expected [x, y, z], got " + describe(p));
            ok = false;
            continue;
        }
        Vec3 out;
        for (std::size_t k = 0; k < 3; ++k) {
            const Num n = r.numbers.constant(p[k], w + "[" + std::to_string(k) + "]", pm, kAny);
            if (!n.ok) ok = false;
            out[k] = n.value;
        }
        vertices.push_back(out);
    }
    if (!ok) return false; // the triangles' index range depends on the vertices
    const SourceMark tm = mark_of(t->value, t->key_mark);
    if (!t->value.is_sequence() || t->value.size() == 0) {
        r.problems.error(tm, path + ".triangles: expected a list of index triples [[i, j, k], ...], got " +
                                     describe(t->value));
        return false;
    }
    if (t->value.size() > kMeshMaxTriangles) {
        r.problems.error(tm,
                         path + ".triangles: a mesh holds at most " + std::to_string(kMeshMaxTriangles) + " triangles");
        return false;
    }
    const double last = static_cast<double>(vertices.size()) - 1;
    for (std::size_t i = 0; i < t->value.size(); ++i) {
        const std::string w = path + ".triangles[" + std::to_string(i) + "]";
        const Node p = t->value[i];
        const SourceMark pm = mark_of(p, tm);
        marks.push_back(pm);
        if (!p.is_sequence() || p.size() != 3) {
            r.problems.error(pm, w + ": expected three vertex indices [i, j, k] (0-based), got " + describe(p));
            ok = false;
            continue;
        }
        std::array<int, 3> out{};
        for (std::size_t k = 0; k < 3; ++k) {
            const Num n =
                    r.numbers.constant(p[k], w + "[" + std::to_string(k) + "]", pm, whole(0, std::max(0.0, last)));
            if (!n.ok) ok = false;
            out[k] = static_cast<int>(n.value);
        }
        triangles.push_back(out);
    }
    return ok;
}

} // namespace

void read_mesh(ReaderState& r, const MapView& view, int body, const What& path) {
    BodyDef& def = r.t.base.bodies[static_cast<std::size_t>(body)];
    const Entry* file = view.find("file");
    const Entry* vertices_entry = view.find("vertices");
    const Entry* triangles_entry = view.find("triangles");
    if (file && (vertices_entry || triangles_entry)) {
        r.problems.error((vertices_entry ? vertices_entry : triangles_entry)->key_mark,
                         path + ": give a mesh as file, or as vertices and triangles; not both");
        return;
    }
    std::vector<Vec3> vertices;
    std::vector<std::array<int, 3>> triangles;
    std::vector<int> face_lines;
    std::vector<SourceMark> marks;
    std::string source = "inline";
    std::string shown;
    if (file) {
        std::string name;
        if (!read_string(r.problems, file, name, path + ".file", false)) return;
        const SourceMark fm = mark_of(file->value, file->key_mark);
        if (name.empty()) {
            r.problems.error(fm, path + ".file: expected the path of an OBJ file");
            return;
        }
        namespace fs = std::filesystem;
        const fs::path base = r.t.file == "-" || r.t.file == "<stdin>" ? fs::path() : fs::path(r.t.file).parent_path();
        const fs::path full = fs::path(name).is_absolute() ? fs::path(name) : base / name;
        shown = full.generic_string();
        std::error_code ec;
        const auto status = fs::status(full, ec);
        if (ec || !fs::exists(status)) {
            r.problems.error(fm, path + ".file: cannot open mesh file '" + shown + "': no such file");
            return;
        }
        if (!fs::is_regular_file(status)) {
            r.problems.error(fm, path + ".file: cannot read mesh file '" + shown + "': not a regular file");
            return;
        }
        const std::uintmax_t size = fs::file_size(full, ec);
        if (!ec && size > kMaxObjBytes) {
            r.problems.error(fm, path + ".file: mesh file '" + shown + "' is " + std::to_string(size) +
                                         " bytes; at most " + std::to_string(kMaxObjBytes) + " are read");
            return;
        }
        std::ifstream in(full, std::ios::binary);
        std::ostringstream text;
        if (in) text << in.rdbuf();
        if (!in || in.bad()) {
            r.problems.error(fm, path + ".file: cannot read mesh file '" + shown + "': " + std::strerror(errno));
            return;
        }
        ObjSite site{shown, r.problems};
        if (!read_obj(text.str(), site, vertices, triangles, face_lines)) return;
        source = shown;
    } else if (!read_inline(r, view, path, vertices, triangles, marks)) {
        return;
    }
    MeshError error;
    auto mesh = build_mesh(std::move(vertices), std::move(triangles), source, &error);
    if (!mesh) {
        const std::size_t k = error.triangle < 0 ? 0 : static_cast<std::size_t>(error.triangle);
        if (file && error.triangle >= 0 && k < face_lines.size()) {
            ObjSite{shown, r.problems}.error(face_lines[k], 1, error.message);
        } else if (!file && error.triangle >= 0 && k < marks.size()) {
            r.problems.error(marks[k], path + ": " + error.message);
        } else if (file) {
            r.problems.error(mark_of(file->value, file->key_mark), path + ".file: '" + shown + "': " + error.message);
        } else {
            r.problems.error(view.mark, path + ": " + error.message);
        }
        return;
    }
    def.shape = Mesh{mesh.get(), identity3(), Vec3{}};
    def.mesh_data = std::move(mesh);
}

} // namespace collide::reader
