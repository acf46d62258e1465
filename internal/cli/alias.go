package cli

import (
	"net"
	"strconv"

	"github.com/spf13/pflag"
)

// deprecatedAlias registers old as another name of fs's flag name, which
// still works and says on stderr to use name.
func deprecatedAlias(fs *pflag.FlagSet, old, name string) {
	f := fs.Lookup(name)
	fs.Var(f.Value, old, "deprecated: use --"+name)
	fs.MarkDeprecated(old, "use --"+name)
}

// listenAddr is addr with its port replaced by port, when port is set.
func listenAddr(addr string, port int) string {
	if host, _, err := net.SplitHostPort(addr); err == nil && port != 0 {
		return net.JoinHostPort(host, strconv.Itoa(port))
	}
	return addr
}

// formatAlias is a boolean flag (--json) that sets a --format flag's
// value to its name.
type formatAlias struct {
	format *string
	name   string
}

func (a formatAlias) String() string { return strconv.FormatBool(*a.format == a.name) }
func (a formatAlias) Type() string   { return "bool" }

// Set sets the format when the flag is true.
func (a formatAlias) Set(v string) error {
	on, err := strconv.ParseBool(v)
	if on {
		*a.format = a.name
	}
	return err
}
