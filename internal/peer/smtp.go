package peer

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// aiosmtpdAuth is aiosmtpd's SMTP class with its Mailbox handler: AUTH
// required before MAIL (530 otherwise), offered without TLS
// (auth_require_tls=False, the server being on loopback), one login
// accepted.
const aiosmtpdAuth = `import asyncio, sys
from aiosmtpd.smtp import SMTP, AuthResult, LoginPassword
from aiosmtpd.handlers import Mailbox

host, port, maildir, user, password = sys.argv[1:6]

def authenticator(server, session, envelope, mechanism, data):
    ok = isinstance(data, LoginPassword) and data.login == user.encode() and data.password == password.encode()
    return AuthResult(success=ok, handled=False)

async def main():
    loop = asyncio.get_running_loop()
    srv = await loop.create_server(lambda: SMTP(Mailbox(maildir), authenticator=authenticator,
        auth_required=True, auth_require_tls=False), host, int(port))
    async with srv:
        await srv.serve_forever()

asyncio.run(main())
`

// AiosmtpdAuth starts aiosmtpd (Debian's python3-aiosmtpd) on a free
// port of loopback, requiring AUTH (RFC 4954) with the one login
// user:password before it takes a message, and returns it and the
// maildir it delivers to. It skips when aiosmtpd is not installed.
func AiosmtpdAuth(t testing.TB, user, password string) (*Server, string) {
	t.Helper()
	const python = "/usr/bin/python3"
	RequirePython(t, python, "aiosmtpd")
	tmp := t.TempDir()
	script := filepath.Join(tmp, "auth_server.py")
	if err := os.WriteFile(script, []byte(aiosmtpdAuth), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(tmp, "maildir")
	s := Start(t, Spec{
		Name:    "aiosmtpd-auth",
		Program: python,
		Args: func(port int) ([]string, error) {
			return []string{script, Host, fmt.Sprint(port), dir, user, password}, nil
		},
		Ready: ReadyLine("220 "),
	})
	return s, dir
}
