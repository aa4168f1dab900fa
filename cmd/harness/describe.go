package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/bitfield/script"
	"github.com/tidwall/gjson"
)

// describe runs every executable in dir with --describe and prints the hooks' descriptions as
// one JSON array in file-name order. Binaries that do not describe themselves as hooks within
// two seconds are skipped.
func describe(w io.Writer, dir string) error {
	if _, err := os.Stat(dir); err != nil {
		return fmt.Errorf("no hooks to describe: %w", err)
	}
	paths, err := script.ListFiles(dir).Slice()
	if err != nil {
		return fmt.Errorf("listing %s: %w", dir, err)
	}
	var docs []string
	for _, p := range paths {
		if st, err := os.Stat(p); err != nil || st.IsDir() || st.Mode()&0o111 == 0 {
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		out, err := script.WithContext(ctx).WithStderr(io.Discard).ExecCommand(p, "--describe").String()
		cancel()
		if err != nil || !gjson.Valid(out) || !gjson.Get(out, "name").Exists() || !gjson.Get(out, "events").IsArray() {
			continue
		}
		docs = append(docs, strings.TrimSpace(out))
	}
	_, err = fmt.Fprintf(w, "[%s]\n", strings.Join(docs, ",\n"))
	return err
}
