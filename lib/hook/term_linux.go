package hook

import "syscall"

const getTermios = syscall.TCGETS
