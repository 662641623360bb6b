#include "webhook/socket_address.h"

#include <doctest/doctest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

namespace jobset::webhook {

TEST_CASE("socket address: both ends of a loopback connection, as numbers") {
  int listener = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  REQUIRE(::bind(listener, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
  REQUIRE(::listen(listener, 1) == 0);
  const SocketEndpoint listening = LocalEndpoint(listener);
  CHECK(listening.ip == "127.0.0.1");
  REQUIRE(listening.port > 0);

  int client = ::socket(AF_INET, SOCK_STREAM, 0);
  addr.sin_port = htons(static_cast<uint16_t>(listening.port));
  REQUIRE(::connect(client, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
  int server = ::accept(listener, nullptr, nullptr);
  REQUIRE(server >= 0);
  // The server sees the client's end as its peer, and the client the listening port.
  CHECK(PeerEndpoint(server).ip == "127.0.0.1");
  CHECK(PeerEndpoint(server).port == LocalEndpoint(client).port);
  CHECK(PeerEndpoint(client).port == listening.port);
  CHECK(LocalEndpoint(server).port == listening.port);

  // Not connected, or no socket at all: nothing known.
  CHECK(PeerEndpoint(listener).ip.empty());
  CHECK(PeerEndpoint(-1).port == 0);
  ::close(server);
  ::close(client);
  ::close(listener);
}

}  // namespace jobset::webhook
