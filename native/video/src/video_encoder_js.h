// The VideoEncoder class JavaScript sees: new VideoEncoder({codec, width, height, bitrateKbps,
// frameRate}), encode(rgb, pts, forceIdr) -> Promise<{packets, convertMs, encodeMs, cpuMs}>,
// setFrameRate(fps) (false while a frame is encoding, or where the codec cannot), describe(),
// close(). Options arrive validated by TypeScript (src/video/); what the addon cannot
// do (a codec not built in, an encoder that will not open) is a thrown Error naming it.
#pragma once

#include <napi.h>

#include <memory>

#include "encoder_state.h"

namespace htpv {

class VideoEncoderJs : public Napi::ObjectWrap<VideoEncoderJs> {
 public:
  static Napi::Function Define(Napi::Env env);
  explicit VideoEncoderJs(const Napi::CallbackInfo& info);
  ~VideoEncoderJs() override;

 private:
  Napi::Value Encode(const Napi::CallbackInfo& info);
  Napi::Value Describe(const Napi::CallbackInfo& info);
  Napi::Value SetFrameRate(const Napi::CallbackInfo& info);
  Napi::Value Close(const Napi::CallbackInfo& info);

  std::shared_ptr<EncoderState> state_;
};

}  // namespace htpv
