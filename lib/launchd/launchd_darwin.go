//go:build darwin && !ios

package launchd

import (
	"fmt"
	"runtime"
	"slices"
	"syscall"
	"unsafe"
)

// launch_activate_socket and free are libSystem's, called without cgo the way the standard
// library and golang.org/x/sys/unix call libSystem on macOS: a dynamic import, an assembly
// trampoline (launchd_darwin.s), and the runtime's syscall.syscall, which runs a C function
// on the system stack.

//go:cgo_import_dynamic libc_launch_activate_socket launch_activate_socket "/usr/lib/libSystem.B.dylib"
//go:cgo_import_dynamic libc_free free "/usr/lib/libSystem.B.dylib"

var launchActivateSocketTrampolineAddr, freeTrampolineAddr uintptr

//go:linkname syscall_syscall syscall.syscall
func syscall_syscall(fn, a1, a2, a3 uintptr) (r1, r2 uintptr, err syscall.Errno)

// activate calls int launch_activate_socket(const char *name, int **fds, size_t *cnt): 0 and
// a malloc'd array of cnt descriptors, else an errno value as the result (ENOENT: no socket of
// that name; ESRCH: this process is not a launchd job; EALREADY: taken already).
func activate(name string) ([]int32, error) {
	cname, err := syscall.BytePtrFromString(name)
	if err != nil {
		return nil, fmt.Errorf("launchd socket name %q: %w", name, err)
	}
	var fds uintptr
	var cnt uint
	var pin runtime.Pinner
	pin.Pin(cname)
	pin.Pin(&fds)
	pin.Pin(&cnt)
	defer pin.Unpin()
	r1, _, e := syscall_syscall(launchActivateSocketTrampolineAddr,
		uintptr(unsafe.Pointer(cname)), uintptr(unsafe.Pointer(&fds)), uintptr(unsafe.Pointer(&cnt)))
	// The result is a C int: its 32 bits alone.
	switch r := syscall.Errno(uint32(r1)); {
	case e != 0: // set only on a result of -1, which launch_activate_socket does not return
		return nil, fmt.Errorf("launch_activate_socket(%q): %w", name, e)
	case r == syscall.ENOENT:
		return nil, fmt.Errorf("launchd holds no socket named %q for this job: %w", name, r)
	case r == syscall.ESRCH:
		return nil, fmt.Errorf("this process is not a launchd job with a socket %q (run it from its launch agent): %w", name, r)
	case r == syscall.EALREADY:
		return nil, fmt.Errorf("the socket %q was taken already: %w", name, r)
	case r != 0:
		return nil, fmt.Errorf("launch_activate_socket(%q): %w", name, r)
	}
	if fds == 0 {
		return nil, nil
	}
	// The array is C memory: copied out, then freed.
	out := slices.Clone(unsafe.Slice((*int32)(*(*unsafe.Pointer)(unsafe.Pointer(&fds))), int(cnt)))
	syscall_syscall(freeTrampolineAddr, fds, 0, 0)
	return out, nil
}
