// The serving certificate: loaded from PEM files, swapped atomically when the files change.
#pragma once

#include <openssl/ssl.h>
#include <openssl/x509.h>

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

namespace jobset::webhook {

/// A parsed certificate chain and the private key that matches its leaf. Immutable once
/// built; shared by every handshake that picked it.
class CertificatePair {
 public:
  /// Parses PEM text: the leaf certificate first, then any intermediates; and the key.
  /// Gives nullptr and a message when either does not parse or they do not match.
  static std::shared_ptr<const CertificatePair> Parse(const std::string& cert_pem,
                                                      const std::string& key_pem,
                                                      std::string* error);
  /// Frees the certificates and the key (connections hold their own references).
  ~CertificatePair();
  CertificatePair(const CertificatePair&) = delete;
  CertificatePair& operator=(const CertificatePair&) = delete;

  /// The leaf certificate, the intermediates after it (possibly empty) and the key; owned by
  /// the pair.
  X509* leaf() const { return leaf_; }
  STACK_OF(X509) * chain() const { return chain_; }
  EVP_PKEY* key() const { return key_; }
  /// notAfter of the leaf, as a Unix timestamp.
  int64_t not_after() const { return not_after_; }
  /// The leaf's serial number in hex, and its subject, for logs.
  const std::string& serial() const { return serial_; }
  const std::string& subject() const { return subject_; }

 private:
  CertificatePair() = default;
  X509* leaf_ = nullptr;
  STACK_OF(X509) * chain_ = nullptr;
  EVP_PKEY* key_ = nullptr;
  int64_t not_after_ = 0;
  std::string serial_, subject_;
};

/// What one look at the files found.
enum class ReloadResult {
  kLoaded,     ///< A new pair is now served.
  kUnchanged,  ///< The files hold what is already served (or what already failed to load).
  kFailed,     ///< The files could not be used; the previous pair (if any) is kept.
};

/// Holds the current pair and reloads it from `cert_file` and `key_file`, like
/// controller-runtime's certwatcher: files are re-read on every poll (which also follows the
/// symlink swaps of Kubernetes Secret volumes), unchanged contents are skipped, and a pair is
/// swapped in only after it parsed and matched; on error the old one stays. Readers never
/// block on a reload for longer than a pointer copy.
class CertificateStore {
 public:
  /// Called after every poll that loaded a pair or failed: the result, the pair now served
  /// (may be null) and, on failure, the message.
  using Observer = std::function<void(ReloadResult, const CertificatePair*, const std::string&)>;

  /// Watches `cert_file` and `key_file`; nothing is read until Reload.
  CertificateStore(std::string cert_file, std::string key_file);
  /// Stops the poller.
  ~CertificateStore();

  /// Reads the files now.
  ReloadResult Reload(std::string* error);
  /// The pair being served, or null before the first successful load.
  std::shared_ptr<const CertificatePair> Current() const;

  /// Starts a thread that calls Reload every `interval` and reports to `observer`.
  void StartPolling(std::chrono::milliseconds interval, Observer observer);
  /// Stops and joins the polling thread (also done by the destructor).
  void StopPolling();

 private:
  const std::string cert_file_, key_file_;
  mutable std::mutex mu_;  // Guards current_ only.
  std::shared_ptr<const CertificatePair> current_;
  std::mutex reload_mu_;                      // Serializes Reload; guards what follows.
  std::string last_cert_pem_, last_key_pem_;  // Contents last tried, loaded or not.
  bool tried_ = false;
  std::string last_read_error_;  // The last file read error, reported once.

  std::mutex poll_mu_;
  std::condition_variable poll_cv_;
  bool stop_ = false;
  std::thread poller_;
};

}  // namespace jobset::webhook
