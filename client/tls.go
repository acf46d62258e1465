package client

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
)

// tlsError is a TLS failure with how to fix it, said first: a report
// quotes the start of a message.
type tlsError struct {
	err  error
	hint string
}

func (e *tlsError) Error() string { return e.hint + ": " + e.err.Error() }
func (e *tlsError) Unwrap() error { return e.err }

// withTLSHint returns err with how to fix it when it is a TLS failure: a
// certificate surge does not trust, or a server that does not speak TLS.
// Other errors, and nil, are returned as they are.
func withTLSHint(err error) error {
	var (
		verify    *tls.CertificateVerificationError
		authority x509.UnknownAuthorityError
		host      x509.HostnameError
		invalid   x509.CertificateInvalidError
		record    tls.RecordHeaderError
		hinted    *tlsError
	)
	switch {
	case err == nil, errors.As(err, &hinted):
		return err
	case errors.As(err, &verify), errors.As(err, &authority), errors.As(err, &host), errors.As(err, &invalid):
		return &tlsError{err, "untrusted certificate (--insecure skips the check; SSL_CERT_FILE=ca.pem trusts the CA that signed it)"}
	case errors.As(err, &record):
		return &tlsError{err, "not TLS (the server speaks plain HTTP: give an http:// URL)"}
	}
	return err
}
