#include "encode_worker.h"

#include <time.h>

#include <stdexcept>

#include "rgb_to_yuv420.h"

namespace htpv {
namespace {

double ThreadCpuMs() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

double WallMs() {
  timespec t{};
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

struct Finished {
  std::vector<EncodedPacket> packets;
  std::vector<bool> keyframes;
  double convert_ms = 0;
  double encode_ms = 0;
  double cpu_ms = 0;
};

class EncodeWorker final : public Napi::AsyncWorker {
 public:
  EncodeWorker(Napi::Env env, std::shared_ptr<EncoderState> state, Napi::Uint8Array rgb, int64_t pts, bool force_idr)
      : Napi::AsyncWorker(env, "htpVideoEncode"),
        deferred_(Napi::Promise::Deferred::New(env)),
        state_(std::move(state)),
        rgb_(Napi::Persistent(rgb)),
        pixels_(rgb.Data()),
        pts_(pts),
        force_idr_(force_idr) {}

  Napi::Promise Promise() const { return deferred_.Promise(); }

 protected:
  void Execute() override {
    try {
      const double cpu0 = ThreadCpuMs();
      const double t0 = WallMs();
      EncoderState& s = *state_;
      RgbToYuv420(pixels_, s.width, s.height, s.encoder->layout(), s.view);
      const double t1 = WallMs();
      if (s.fail_after >= 0 && s.frames >= s.fail_after) throw std::runtime_error("test fault: the encoder stopped answering");
      s.encoder->Encode(s.view, pts_, force_idr_, done_.packets);
      ++s.frames;
      for (EncodedPacket& p : done_.packets) done_.keyframes.push_back(s.parameter_sets.Complete(p.data));
      const double t2 = WallMs();
      done_.convert_ms = t1 - t0;
      done_.encode_ms = t2 - t1;
      done_.cpu_ms = ThreadCpuMs() - cpu0;
    } catch (const std::exception& e) {
      SetError(e.what());
    }
  }

  void OnOK() override {
    Napi::Env env = Env();
    Release();
    Napi::Array packets = Napi::Array::New(env, done_.packets.size());
    for (size_t i = 0; i < done_.packets.size(); ++i) {
      EncodedPacket& p = done_.packets[i];
      Napi::Object o = Napi::Object::New(env);
      o.Set("data", Napi::Buffer<uint8_t>::Copy(env, p.data.data(), p.data.size()));
      o.Set("pts", Napi::Number::New(env, static_cast<double>(p.pts)));
      o.Set("keyframe", Napi::Boolean::New(env, done_.keyframes[i]));
      packets.Set(static_cast<uint32_t>(i), o);
    }
    Napi::Object result = Napi::Object::New(env);
    result.Set("packets", packets);
    result.Set("convertMs", done_.convert_ms);
    result.Set("encodeMs", done_.encode_ms);
    result.Set("cpuMs", done_.cpu_ms);
    deferred_.Resolve(result);
  }

  void OnError(const Napi::Error& e) override {
    Release();
    deferred_.Reject(e.Value());
  }

 private:
  // The encoder is free again; one its owner closed meanwhile is freed now, on the main thread.
  void Release() {
    state_->busy = false;
    if (state_->closed) state_->encoder.reset();
    rgb_.Reset();
  }

  Napi::Promise::Deferred deferred_;
  std::shared_ptr<EncoderState> state_;
  Napi::Reference<Napi::Uint8Array> rgb_;
  const uint8_t* pixels_;
  int64_t pts_;
  bool force_idr_;
  Finished done_;
};

}  // namespace

Napi::Promise StartEncode(Napi::Env env, std::shared_ptr<EncoderState> state, Napi::Uint8Array rgb, int64_t pts,
                          bool force_idr) {
  state->busy = true;
  auto* worker = new EncodeWorker(env, std::move(state), rgb, pts, force_idr);
  Napi::Promise promise = worker->Promise();
  worker->Queue();
  return promise;
}

}  // namespace htpv
