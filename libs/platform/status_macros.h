// Early-return helpers for absl::Status / absl::StatusOr. Prefixed with
// DRAUGHTS_ so they never clash with macros of the same idea from other
// libraries.
#ifndef DRAUGHTS_PLATFORM_STATUS_MACROS_H_
#define DRAUGHTS_PLATFORM_STATUS_MACROS_H_

#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "platform/status.h"

// Evaluates `expr` (an absl::Status) once; returns it from the enclosing
// function if it is not OK.
#define DRAUGHTS_RETURN_IF_ERROR(expr)                   \
  do {                                                   \
    ::absl::Status draughts_status_ = (expr);            \
    if (!draughts_status_.ok()) return draughts_status_; \
  } while (false)

// Same, for functions returning grpc::Status (RPC handlers).
#define DRAUGHTS_GRPC_RETURN_IF_ERROR(expr)                                                  \
  do {                                                                                       \
    ::absl::Status draughts_status_ = (expr);                                                \
    if (!draughts_status_.ok()) return ::draughts::platform::ToGrpcStatus(draughts_status_); \
  } while (false)

#define DRAUGHTS_STATUS_CONCAT_INNER_(a, b) a##b
#define DRAUGHTS_STATUS_CONCAT_(a, b) DRAUGHTS_STATUS_CONCAT_INNER_(a, b)

// `DRAUGHTS_ASSIGN_OR_RETURN(auto value, Compute());` evaluates the
// absl::StatusOr once; on error returns its status, else move-assigns the
// value to `lhs` (which may declare a new variable).
#define DRAUGHTS_ASSIGN_OR_RETURN(lhs, expr)                            \
  DRAUGHTS_ASSIGN_OR_RETURN_IMPL_(                                      \
      DRAUGHTS_STATUS_CONCAT_(draughts_statusor_, __LINE__), lhs, expr, \
      return std::move(DRAUGHTS_STATUS_CONCAT_(draughts_statusor_, __LINE__)).status())

// Same, for functions returning grpc::Status.
#define DRAUGHTS_GRPC_ASSIGN_OR_RETURN(lhs, expr)                       \
  DRAUGHTS_ASSIGN_OR_RETURN_IMPL_(                                      \
      DRAUGHTS_STATUS_CONCAT_(draughts_statusor_, __LINE__), lhs, expr, \
      return ::draughts::platform::ToGrpcStatus(                        \
          DRAUGHTS_STATUS_CONCAT_(draughts_statusor_, __LINE__).status()))

#define DRAUGHTS_ASSIGN_OR_RETURN_IMPL_(tmp, lhs, expr, on_error) \
  auto tmp = (expr);                                              \
  if (!tmp.ok()) on_error;                                        \
  lhs = std::move(tmp).value()

#endif  // DRAUGHTS_PLATFORM_STATUS_MACROS_H_
