// The addresses of a connected socket's two ends, as text.
#pragma once

#include <string>

namespace jobset::webhook {

/// One end of a connection: a numeric IPv4 or IPv6 address and a port ("" and 0 when unknown).
struct SocketEndpoint {
  std::string ip;
  int port = 0;
};

/// The peer's end of the connected socket `fd` (getpeername).
SocketEndpoint PeerEndpoint(int fd);
/// Our end of the connected socket `fd` (getsockname).
SocketEndpoint LocalEndpoint(int fd);

}  // namespace jobset::webhook
