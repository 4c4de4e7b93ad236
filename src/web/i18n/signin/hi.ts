import type { SignInTexts } from './en';

/**
 * The sign-in form's texts in Hindi: the one copy of them, which the panel's Hindi catalogue (../hi.ts) and
 * raLanguageHindi.ts take too. In the sign-in page's first script with the English (texts.ts says why).
 */
export const signinHi: SignInTexts = {
  ra: {
    action: { close: 'बंद करें', toggle_theme: 'हल्की/गहरी थीम बदलें' },
    input: { password: { toggle_visible: 'पासवर्ड छिपाएँ', toggle_hidden: 'पासवर्ड दिखाएँ' } },
  },
  app: {
    title: 'Tierdesk',
    notification: {
      errorTitle: 'त्रुटि!!!',
      httpError: 'त्रुटि: %{message}',
      httpStatus: 'त्रुटि कोड: %{status} संदेश: %{message}',
    },
    login: {
      heading: 'फिर से स्वागत है!',
      subtext: 'जारी रखने के लिए अपना विवरण दर्ज करें',
      mobile: 'मोबाइल',
      password: 'पासवर्ड',
      submit: 'लॉगिन',
      createAccount: 'खाता बनाएँ',
      logoHome: 'Tierdesk मुखपृष्ठ',
      otp: 'प्रमाणीकरण कोड',
      recoveryCode: 'रिकवरी कोड',
      recoveryHint: 'दो-चरणीय साइन-इन सेट करते समय रखे गए रिकवरी कोड में से एक दर्ज करें',
      useRecoveryCode: 'इसके बजाय रिकवरी कोड का उपयोग करें',
      useOtp: 'इसके बजाय ऑथेंटिकेटर ऐप का कोड उपयोग करें',
    },
    shared: {
      msg: {
        required: 'यह फ़ील्ड आवश्यक है',
        minLength: 'न्यूनतम लंबाई पूरी नहीं हुई',
        atMost: 'अधिकतम %{max} अक्षर',
        invalidLoginForm: 'उपयोगकर्ता नाम या पासवर्ड अमान्य है',
        invalidCredentials: 'उपयोगकर्ता नाम या पासवर्ड गलत है',
        customerLoginRefused: 'ग्राहक पैनल पर लॉगिन नहीं कर सकते। कृपया ऐप डाउनलोड करें!',
        inactiveUser: 'आपका खाता निष्क्रिय है। कृपया अपने व्यवस्थापक से संपर्क करें।',
        passwordChangeRequired: 'पासवर्ड बदलना आवश्यक है',
        internetError: 'इंटरनेट कनेक्शन त्रुटि',
        internalError: 'हमारी ओर से कुछ गलत हो गया। कृपया फिर से प्रयास करें।',
        databaseSwitching: 'डेटाबेस बदला जा रहा है; थोड़ी देर में फिर से प्रयास करें',
        validationFailed: 'अमान्य डेटा!',
        xsrfRefused: 'XSRF टोकन अमान्य है या नहीं है',
        requestTimeout: 'अनुरोध समय पर नहीं पहुँचा। कृपया इसे फिर से भेजें।',
        tooManyAttempts:
          'बहुत अधिक विफल लॉगिन प्रयास। %{smart_count} मिनट बाद फिर से प्रयास करें। |||| बहुत अधिक विफल लॉगिन प्रयास। %{smart_count} मिनट बाद फिर से प्रयास करें।',
        tooManyAddressAttempts:
          'इस नेटवर्क से बहुत अधिक साइन-इन प्रयास। %{smart_count} मिनट बाद फिर से प्रयास करें। |||| इस नेटवर्क से बहुत अधिक साइन-इन प्रयास। %{smart_count} मिनट बाद फिर से प्रयास करें।',
        tooManyPasswordAttempts:
          'बहुत अधिक गलत पासवर्ड। %{smart_count} मिनट बाद फिर से प्रयास करें। |||| बहुत अधिक गलत पासवर्ड। %{smart_count} मिनट बाद फिर से प्रयास करें।',
      },
      mfa: {
        codeRequired: 'अपने ऑथेंटिकेटर ऐप से कोड दर्ज करें',
        codeFormat: 'कोड वे 6 अंक हैं जो आपका ऑथेंटिकेटर ऐप दिखाता है',
        wrongCode: 'यह कोड सही नहीं है। आपका ऑथेंटिकेटर ऐप अभी जो कोड दिखा रहा है, वह दर्ज करें।',
        usedCode: 'यह कोड पहले ही उपयोग हो चुका है। आपका ऑथेंटिकेटर ऐप जो अगला कोड दिखाए, वह दर्ज करें।',
        wrongRecoveryCode: 'यह रिकवरी कोड सही नहीं है, या पहले ही उपयोग हो चुका है',
      },
    },
  },
};
