package main

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"time"
)

// writeArchive writes harness_<version>_<os>_<arch>.tar.gz (.zip for Windows) into c.out: one
// top folder of the same name, holding the binaries, the docs, release.json and SHA256SUMS.
func writeArchive(c config, t target, bins, docs []file) (string, error) {
	base := fmt.Sprintf("harness_%s_%s_%s", c.version, t.os, t.arch)
	files := prefixed(base, payload(c, t, bins, docs))
	var b []byte
	var err error
	name := base + ".tar.gz"
	if t.os == "windows" {
		name = base + ".zip"
		b, err = zipBytes(files, c.mtime)
	} else {
		b, err = tgzBytes(files, c.mtime)
	}
	if err != nil {
		return "", err
	}
	return name, os.WriteFile(filepath.Join(c.out, name), b, 0o644)
}

// dirsOf lists the folders files live in, parents first, for the archive's folder entries.
func dirsOf(files []file) []string {
	seen := map[string]bool{}
	var dirs []string
	for _, f := range files {
		for d := path.Dir(f.name); d != "." && !seen[d]; d = path.Dir(d) {
			seen[d] = true
			dirs = append(dirs, d)
		}
	}
	sort.Strings(dirs)
	return dirs
}

// tgzBytes is a gzipped tar whose bytes depend on the files alone: entries in name order (each
// folder before what it holds), one time, owner root with no names, a gzip header with no
// name and no time.
func tgzBytes(files []file, mtime time.Time) ([]byte, error) {
	var buf bytes.Buffer
	gz, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		return nil, err
	}
	tw := tar.NewWriter(gz)
	type entry struct {
		h    tar.Header
		data []byte
	}
	var entries []entry
	for _, d := range dirsOf(files) {
		entries = append(entries, entry{h: tar.Header{Typeflag: tar.TypeDir, Name: d + "/", Mode: 0o755}})
	}
	for _, f := range files {
		entries = append(entries, entry{h: tar.Header{Typeflag: tar.TypeReg, Name: f.name, Mode: int64(f.mode.Perm()), Size: int64(len(f.data))}, data: f.data})
	}
	sort.SliceStable(entries, func(i, j int) bool { return entries[i].h.Name < entries[j].h.Name })
	for _, e := range entries {
		e.h.ModTime = mtime
		e.h.Format = tar.FormatUSTAR
		if err := tw.WriteHeader(&e.h); err != nil {
			return nil, fmt.Errorf("archiving %s: %w", e.h.Name, err)
		}
		if _, err := tw.Write(e.data); err != nil {
			return nil, err
		}
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	if err := gz.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// zipBytes is a zip whose bytes depend on the files alone, as tgzBytes.
func zipBytes(files []file, mtime time.Time) ([]byte, error) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	type entry struct {
		name string
		mode os.FileMode
		data []byte
	}
	var entries []entry
	for _, d := range dirsOf(files) {
		entries = append(entries, entry{name: d + "/", mode: os.ModeDir | 0o755})
	}
	for _, f := range files {
		entries = append(entries, entry{name: f.name, mode: f.mode.Perm(), data: f.data})
	}
	sort.SliceStable(entries, func(i, j int) bool { return entries[i].name < entries[j].name })
	for _, e := range entries {
		h := &zip.FileHeader{Name: e.name, Method: zip.Deflate, Modified: mtime}
		if e.mode.IsDir() {
			h.Method = zip.Store
		}
		h.SetMode(e.mode)
		w, err := zw.CreateHeader(h)
		if err != nil {
			return nil, fmt.Errorf("archiving %s: %w", e.name, err)
		}
		if _, err := w.Write(e.data); err != nil {
			return nil, err
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
