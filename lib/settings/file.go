package settings

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gofrs/flock"
	"github.com/tidwall/gjson"

	"github.com/hookkit/harness/lib/state"
)

// File is a settings file as it is on disk.
type File struct {
	Path string
	// Raw is the content; nil when the file does not exist.
	Raw    []byte
	Exists bool
	Mode   fs.FileMode
}

// SyntaxError is a settings file that is not valid JSON (or, with Format, TOML), with where it
// goes wrong.
type SyntaxError struct {
	Path, Format string
	Line, Col    int
	Msg          string
}

func (e *SyntaxError) Error() string {
	format := e.Format
	if format == "" {
		format = "JSON"
	}
	return fmt.Sprintf("%s is not valid %s: line %d, column %d: %s", e.Path, format, e.Line, e.Col, e.Msg)
}

// readRaw reads a file's bytes and mode; one not there yet is an empty File, mode 0644.
func readRaw(path string) (*File, error) {
	f := &File{Path: path, Mode: 0o644}
	b, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return f, nil
	case err != nil:
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	if st, err := os.Stat(path); err == nil {
		f.Mode = st.Mode().Perm()
	}
	f.Raw, f.Exists = b, true
	return f, nil
}

// Read loads a settings file. A missing file is an empty File; a file that is not a JSON
// object is a *SyntaxError naming the line and column.
func Read(path string) (*File, error) {
	f, err := readRaw(path)
	if err != nil || !f.Exists {
		return f, err
	}
	b := f.Raw
	if len(bytes.TrimSpace(b)) == 0 {
		return f, nil // an empty file is an empty object
	}
	if err := CheckJSON(path, b); err != nil {
		return nil, err
	}
	return f, nil
}

// CheckJSON reports where data stops being one JSON object.
func CheckJSON(path string, data []byte) error {
	var v any
	err := json.Unmarshal(data, &v)
	var se *json.SyntaxError
	switch {
	case errors.As(err, &se):
		line, col := position(data, int(se.Offset))
		return &SyntaxError{Path: path, Line: line, Col: col, Msg: se.Error()}
	case err != nil:
		return &SyntaxError{Path: path, Line: 1, Col: 1, Msg: err.Error()}
	}
	if _, ok := v.(map[string]any); !ok {
		line, col := position(data, len(data)-len(bytes.TrimLeft(data, " \t\r\n"))+1)
		return &SyntaxError{Path: path, Line: line, Col: col, Msg: "the top level is not an object"}
	}
	return nil
}

// position turns encoding/json's offset (bytes read, the bad one included) into a 1-based
// line and column of the bad byte.
func position(data []byte, offset int) (line, col int) {
	idx := min(max(offset-1, 0), len(data))
	before := data[:idx]
	return bytes.Count(before, []byte("\n")) + 1, idx - bytes.LastIndexByte(before, '\n')
}

// Hash is the content hash recorded in the manifest.
func Hash(b []byte) string {
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// Lock takes an exclusive lock named name, held in dir (never next to a user's file). The
// installer takes one lock for all its work: the manifest is shared by every settings file.
func Lock(dir, name string) (*flock.Flock, error) {
	return state.Lock(filepath.Join(dir, strings.TrimPrefix(Hash([]byte(name)), "sha256:")[:16]))
}

// Write replaces path with data atomically (lib/state): a crash leaves the old file or the
// new one, never a mix.
func Write(path string, data []byte, mode fs.FileMode) error { return state.Write(path, data, mode) }

// Backup copies the current content of a settings file to dir, named by the file and the time.
func Backup(dir string, f *File) (string, error) {
	if !f.Exists {
		return "", nil
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("creating %s: %w", dir, err)
	}
	name := strings.ReplaceAll(strings.Trim(f.Path, "/"), "/", "_")
	p := filepath.Join(dir, name+"."+time.Now().UTC().Format("20060102T150405.000000000Z"))
	if err := state.Write(p, f.Raw, 0o600); err != nil {
		return "", err
	}
	return p, nil
}

// Valid reports whether data is one JSON object (gjson's fast check).
func Valid(data []byte) bool {
	return gjson.ValidBytes(data) && gjson.ParseBytes(data).IsObject()
}
